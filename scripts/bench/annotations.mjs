// What spec annotations cost, for the notes (not a test): `npm run bench:annotations`.
// Printed, medians of 5 repeats side by side with the aims:
//   (a) parsing plus decorating a 10,000-line spec with 1,000 annotations (green regions,
//       discovery notes after them, some nested, with fences and inline code between): the parse,
//       then annotationLook (the ranges of every decoration and lens, with each note's case looked
//       up) — what the editor computes before handing the ranges to VS Code; aim under 20 ms;
//   (b) re-decorating after a one-character edit in prose: annotationShift (offsets moved, no
//       parse) plus annotationLook; aim under 5 ms. In the editor no range moves, so nothing is
//       handed to VS Code again at all; the look is counted here all the same;
//   (b') the same after an edit on a marker's line, which needs a full parse;
//   (c) parsing a 10 MB file that opens one marker and never closes it: ms and MB/s (linear);
//   (d) 100,000 `<!--@ax` with no `-->`: each is a problem (linear too).
// The TypeScript sources load through tsx; no build needed.
import { performance } from 'node:perf_hooks';
import 'tsx';

const REPEATS = 5;
const cjs = async (path) => (await import(path)).default;
const { parseAnnotations } = await cjs('../../src/core/annotations/annotationParser.ts');
const { annotationLook } = await cjs('../../src/core/annotations/annotationLook.ts');
const { shiftedParse } = await cjs('../../src/core/annotations/annotationShift.ts');

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** A spec of `lines` lines with `annotations` annotations spread through it. */
function spec(lines, annotations) {
  const out = [];
  const every = Math.floor(lines / annotations);
  let made = 0;
  for (let i = 0; out.length < lines; i++) {
    const n = out.length;
    if (n % 500 === 0) out.push('```ts', 'const marker = "<!--/@ax-->";', '```');
    else if (made < annotations && n % every === 0) {
      const task = `task-${String(made).padStart(3, '0')}`;
      if (made % 10 === 8) {
        out.push(
          `<!--@ax:0-${n}:blue:${task}-->An outer region <!--@ax:${n}-${n + 9}:green:${task}-->with a nested one<!--/@ax--> inside.<!--/@ax-->`,
        );
        made += 2;
      } else if (made % 2 === 0) {
        out.push(
          `<!--@ax:${n}-${n + 45}:green:${task}-->Users should be able to log in with email and password (${n}).<!--/@ax-->`,
        );
        made++;
      } else {
        out.push(
          `<!--@ax-discovery:${task}:disc-${String(made + 1).padStart(3, '0')}-->Note: Safari requires SameSite=None for cookies<!--/@ax-->`,
        );
        made++;
      }
    } else
      out.push(`Line ${i} of the spec says what the system does, with \`code\` and a [link](https://example.com).`);
  }
  return out.join('\n');
}

function time(fn) {
  const started = performance.now();
  const value = fn();
  return { ms: performance.now() - started, value };
}

const text = spec(10_000, 1_000);
/** A one-character insertion at `at`, as VS Code reports it, and the text after it. */
const insertAt = (at) => ({
  change: { rangeOffset: at, rangeLength: 0, text: 'x' },
  after: `${text.slice(0, at)}x${text.slice(at)}`,
});
const proseAt = text.indexOf('says what', text.length >> 1);
const markerAt = text.indexOf('-->', text.length >> 1) - 2;
const prose = insertAt(proseAt);
const onMarker = insertAt(markerAt);
/** The cases the notes show: every third one outdated, a few unknown. */
const statuses = ['active', 'active', 'outdated'];
const cases = new Map();
for (let i = 1; i <= 990; i++)
  cases.set(`disc-${String(i).padStart(3, '0')}`, { id: `disc-${i}`, status: statuses[i % 3] });
const lookup = (id) => cases.get(id);
const filler = 'Plain spec text, with `code` and <!-- comments --> and - dashes -.\n';
const big = `<!--@ax:0-1:green:t-->${filler.repeat(Math.ceil(10_000_000 / filler.length))}`;
const hostile = '<!--@ax'.repeat(100_000);

const first = parseAnnotations(text);
if (first.annotations.length !== 1_000 || first.problems.length !== 0) {
  throw new Error(`the spec parsed to ${first.annotations.length} annotations and ${first.problems.length} problems`);
}
if (shiftedParse(first, text, prose.after, prose.change) === undefined)
  throw new Error('the edit in prose was not shifted');
if (shiftedParse(first, text, onMarker.after, onMarker.change) !== undefined)
  throw new Error('the edit on a marker line was shifted');
for (let i = 0; i < 5; i++) annotationLook(parseAnnotations(text), lookup); // warm-up: the JIT

const runs = { spec: [], look: [], edit: [], editMarker: [], big: [], hostile: [] };
for (let i = 0; i < REPEATS; i++) {
  runs.spec.push(time(() => parseAnnotations(text)).ms);
  runs.look.push(time(() => annotationLook(parseAnnotations(text), lookup)).ms);
  runs.edit.push(time(() => annotationLook(shiftedParse(first, text, prose.after, prose.change), lookup)).ms);
  runs.editMarker.push(
    time(() =>
      annotationLook(
        shiftedParse(first, text, onMarker.after, onMarker.change) ?? parseAnnotations(onMarker.after),
        lookup,
      ),
    ).ms,
  );
  const b = time(() => parseAnnotations(big));
  if (b.value.problems.length !== 1) throw new Error(`the 10 MB file gave ${b.value.problems.length} problems`);
  runs.big.push(b.ms);
  runs.hostile.push(time(() => parseAnnotations(hostile)).ms);
}

const f = (x) => x.toFixed(2).padStart(9);
const row = (label, xs, aim = '') =>
  console.log(`  ${label.padEnd(56)}${f(median(xs))}  ${aim.padEnd(10)}[${xs.map((x) => x.toFixed(2)).join(', ')}]`);
console.log(`annotation parser, median of ${REPEATS} repeats (all repeats in brackets)`);
console.log(`  ${''.padEnd(56)}${'median'.padStart(9)}  ${'aim'.padEnd(10)}`);
row(`ms, parse 10,000 lines, 1,000 annotations (${(text.length / 1e3).toFixed(0)} kB)`, runs.spec);
row('ms, … parse plus decorate (annotationLook)', runs.look, '< 20');
row('ms, re-decorate after a one-character edit in prose', runs.edit, '< 5');
row("ms, … after one on a marker's line (full parse)", runs.editMarker);
row(`ms, parse ${(big.length / 1e6).toFixed(1)} MB with one unclosed marker`, runs.big);
row(
  'MB/s, … of it',
  runs.big.map((ms) => big.length / 1e6 / (ms / 1e3)),
);
row('ms, 100,000 `<!--@ax` with no `-->` (each a problem)', runs.hostile);
console.log("  decorate = the ranges of every highlight, dimmed marker and lens, each note's case looked up; in the");
console.log('  editor an edit in prose moves no range, so nothing is handed to VS Code again.');
