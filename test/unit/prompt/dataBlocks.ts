// What a prompt says in its own voice: the text outside every untrusted data block that
// wrapUntrusted made. Tests put a marker into every text a file or a person supplies and then
// require that the marker appears only inside blocks.
const OPEN = /<untrusted-data boundary="([0-9a-f]{32})" source="[^"\n]*">\n/g;

export interface SplitPrompt {
  /** The prompt with every block's body removed (the tags stay, so the structure is visible). */
  outside: string;
  /** Each block's body. */
  bodies: string[];
}

/** Throws when a block is not closed: that is a broken prompt, never a pass. */
export function splitPrompt(prompt: string): SplitPrompt {
  const bodies: string[] = [];
  let outside = '';
  let at = 0;
  OPEN.lastIndex = 0;
  for (let open = OPEN.exec(prompt); open !== null; open = OPEN.exec(prompt)) {
    const close = `\n</untrusted-data boundary="${open[1]}">`;
    const bodyStart = open.index + open[0].length;
    const end = prompt.indexOf(close, bodyStart);
    if (end < 0) throw new Error(`a data block opened at ${open.index} is never closed`);
    outside += prompt.slice(at, bodyStart);
    bodies.push(prompt.slice(bodyStart, end));
    at = end;
    OPEN.lastIndex = end + close.length;
  }
  outside += prompt.slice(at);
  return { outside, bodies };
}

/** The prompt's own text, i.e. what lies outside every data block. */
export function outsideDataBlocks(prompt: string): string {
  return splitPrompt(prompt).outside;
}
