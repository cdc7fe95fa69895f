// The words of a command line as the shell would split them, read char by char once (no regex
// backtracking): what commandPolicy.ts checks for eval, exec and sudo, and manifests.ts for the
// tools that run a manifest's scripts. Quotes and backslashes are dropped rather than honoured,
// which can only make more words look like commands.

/** Words that run the word after them as a command, so that word is checked as one too. */
export const WRAPPERS = new Set([
  'command',
  'builtin',
  'env',
  'nohup',
  'nice',
  'time',
  'timeout',
  'xargs',
  'stdbuf',
  'ionice',
  'setsid',
  '!',
  '{',
  'if',
  'then',
  'else',
  'elif',
  'do',
  'while',
  'until',
]);

/** Longer words cannot be a keyword or a tool's name; only whether they overflowed is kept. */
const WORD_CAP = 64;

/** Characters that end a word and start a new command (or are an operator the scan reports on its own). */
function isSeparator(c: number): boolean {
  // ; & | ( ) < > ` \n \r
  return (
    c === 59 ||
    c === 38 ||
    c === 124 ||
    c === 40 ||
    c === 41 ||
    c === 60 ||
    c === 62 ||
    c === 96 ||
    c === 10 ||
    c === 13
  );
}

export interface Word {
  /** The word without quotes and backslashes, lowercased; '' when it overflowed WORD_CAP. */
  text: string;
  /** Its last path segment ('/usr/bin/npm' → 'npm'), lowercased; '' when it overflowed. */
  base: string;
  /** Whether the shell would run it as a command (the first word, or after a separator, assignments or a wrapper). */
  commandWord: boolean;
}

/**
 * Each word of the command, in order. Quotes and backslashes are dropped rather than honoured
 * ("e\val", 'ev''al' are eval to the shell), which can only make more words look like commands.
 */
export function forEachWord(command: string, visit: (word: Word) => void): void {
  let text = '';
  let base = '';
  let textOver = false;
  let baseOver = false;
  let inWord = false;
  // An assignment (NAME=value) keeps the command position: 'FOO=1 eval x' runs eval.
  let assignment: 'name' | 'yes' | 'no' = 'name';
  let commandPosition = true;

  const end = () => {
    if (!inWord) return;
    const word: Word = {
      text: textOver ? '' : text.toLowerCase(),
      base: baseOver ? '' : base.toLowerCase(),
      commandWord: commandPosition,
    };
    visit(word);
    if (commandPosition) {
      const keeps =
        assignment === 'yes' || WRAPPERS.has(word.text) || word.text.startsWith('-') || /^\d+$/.test(word.text);
      commandPosition = keeps;
    }
    text = '';
    base = '';
    textOver = baseOver = inWord = false;
    assignment = 'name';
  };

  for (let i = 0; i < command.length; i++) {
    const c = command.charCodeAt(i);
    if (c === 32 || c === 9) {
      end();
      continue;
    }
    if (isSeparator(c)) {
      end();
      commandPosition = true;
      continue;
    }
    inWord = true;
    if (c === 39 || c === 34) continue; // ' "
    if (c === 92 || c === 47) {
      // \ is an escape to sh and a path separator to cmd.exe; / a path separator: the base restarts.
      base = '';
      baseOver = false;
      if (c === 92) continue;
    } else if (!baseOver) {
      base += command[i] as string;
      if (base.length > WORD_CAP) baseOver = true;
    }
    if (assignment === 'name') {
      const identifier =
        (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || (c >= 48 && c <= 57 && text.length > 0);
      if (c === 61 && text.length > 0) assignment = 'yes';
      else if (!identifier) assignment = 'no';
    }
    if (!textOver) {
      text += command[i] as string;
      if (text.length > WORD_CAP) textOver = true;
    }
  }
  end();
}
