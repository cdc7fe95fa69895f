// Model text kept as markdown in a document (an Idea Brief's fields, a report) keeps its lists,
// emphasis and code, but not what would make a preview fetch or run something: an image loads
// its URL when the document is shown (a remote image is a tracking pixel at best), and raw HTML
// can embed images, iframes, forms or styles. Both are turned into text that shows what the model
// wrote: `![` loses its meaning by an escaped bracket, and `<` before a tag becomes `&lt;`.
//
// Only a fence that CommonMark itself takes for one is left as it is (nothing in it renders): at
// the start of a line with no indentation (an indented one may belong to a list item, which an
// unindented line ends, and the image after it renders), and for backticks an info string with
// no backtick (```js` is no fence). A fence left open is closed at the end, so that it cannot
// swallow the rest of the document (the next section, say). Any other line is escaped, including
// lines of a code block that is not trusted to be one: a `&lt;` shown in code is the price of
// never guessing wrong the other way.

/** A fence opener at column 0: its marker and its info string. */
const OPENER = /^(`{3,}|~{3,})(.*)$/;
/** A closer may be indented up to three spaces (CommonMark), and then nothing but spaces. */
const CLOSER = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;
/** `<` that would open an HTML tag, a comment, a declaration or a processing instruction. */
const TAG_START = /<(?=[A-Za-z/!?])/g;

/** One line with images and HTML neutralised, for text that is never a block (a title, a cell). */
export function neutralizeInline(line: string): string {
  return line.replace(/!\[/g, '!\\[').replace(TAG_START, '&lt;');
}

export function neutralizeMarkdown(text: string): string {
  let fence: string | undefined;
  // Markdown ends a line at \r too: a fence closed by "```\r" must be seen as closed.
  const lines = text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => {
      if (fence !== undefined) {
        const closer = CLOSER.exec(line)?.[1];
        if (closer !== undefined && closer[0] === fence[0] && closer.length >= fence.length) fence = undefined;
        return line;
      }
      const opener = OPENER.exec(line);
      if (opener !== null && !(opener[1]![0] === '`' && opener[2]!.includes('`'))) {
        fence = opener[1];
        return line;
      }
      return neutralizeInline(line);
    });
  if (fence !== undefined) lines.push(fence);
  return lines.join('\n');
}

/** A fence of backticks longer than any run of them in `text` (at least three). */
export function fenceFor(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}

/** `text` in a fenced block that shows it verbatim, whatever it holds. */
export function fenced(text: string, info = 'text'): string {
  const fence = fenceFor(text);
  return `${fence}${info}\n${text}\n${fence}`;
}
