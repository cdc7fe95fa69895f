// Model text kept as markdown in a document (an Idea Brief's fields, a report) keeps its lists,
// emphasis and code, but not what would make a preview fetch or run something: an image loads
// its URL when the document is shown (a remote image is a tracking pixel at best), and raw HTML
// can embed images, iframes, forms or styles. Both are turned into text that shows what the model
// wrote: `![` loses its meaning by an escaped bracket, and `<` before a tag becomes `&lt;`.
// Fenced code blocks are left as they are: nothing in them renders. One left open is closed at
// the end, so that it cannot swallow the rest of the document (the next section, say).

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
/** `<` that would open an HTML tag, a comment, a declaration or a processing instruction. */
const TAG_START = /<(?=[A-Za-z/!?])/g;

export function neutralizeMarkdown(text: string): string {
  let fence: string | undefined;
  const lines = text
    .split('\n')
    .map((line) => {
      const marker = FENCE.exec(line)?.[1];
      if (fence !== undefined) {
        if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = undefined;
        return line;
      }
      if (marker !== undefined) {
        fence = marker;
        return line;
      }
      return line.replace(/!\[/g, '!\\[').replace(TAG_START, '&lt;');
    });
  if (fence !== undefined) lines.push(fence);
  return lines.join('\n');
}
