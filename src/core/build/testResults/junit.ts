// JUnit XML, as pytest (--junitxml), Node (--test-reporter=junit), Vitest (--reporter=junit),
// jest-junit, Maven Surefire and go-junit-report write it:
//
//   <testsuites>
//     <testsuite name="cart" tests="4" …>
//       <testcase classname="test_cart.TestTotals" name="test_sums_prices" file="…" time="0.1"/>
//       <testcase name="removes an item"><failure message="…">…</failure></testcase>   also <error>
//       <testcase name="applies a coupon"><skipped/></testcase>
//     </testsuite>
//   </testsuites>
//
// Counted from the testcase elements (not the suites' attributes, which writers get wrong). A
// test's suite is the path of testsuite names, and its classname when that says more (Node writes
// `classname="test"` for every case, jest-junit the test's own name). Read by one forward scan
// (comments, CDATA, processing instructions skipped whole); complete when the root element closed.
import { type Run, RunBuilder, type TestStatus } from './tally';

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** `text` with XML's character references and the five named entities decoded. */
function decode(text: string): string {
  return text.replace(/&(#\d{1,7}|#x[0-9a-fA-F]{1,6}|[a-z]{2,4});/g, (whole, ref: string) => {
    if (!ref.startsWith('#')) return ENTITIES[ref] ?? whole;
    const code = ref[1] === 'x' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/** The attributes of a start tag's text (after its name). */
function attributes(text: string): Map<string, string> {
  const found = new Map<string, string>();
  const re = /([\w:.-]{1,100})\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) found.set(m[1] ?? '', decode(m[2] ?? m[3] ?? ''));
  return found;
}

/** Where the tag that starts at `from` (its `<`) ends (its `>`), quotes respected; -1 if it does not. */
function tagEnd(xml: string, from: number): number {
  let quote = '';
  for (let i = from + 1; i < xml.length; i++) {
    const c = xml[i];
    if (quote !== '') {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '>') return i;
  }
  return -1;
}

const SKIP_UNTIL: [string, string][] = [
  ['<!--', '-->'],
  ['<![CDATA[', ']]>'],
  ['<?', '?>'],
  ['<!', '>'],
];

interface OpenCase {
  name: string;
  status: TestStatus;
  suite?: string;
  file?: string;
}

class JunitReader {
  readonly builder = new RunBuilder('junit', 0);
  private readonly suites: string[] = [];
  private depth = 0;
  private testCase: OpenCase | undefined;
  recognised = false;
  closed = false;

  open(name: string, attrs: Map<string, string>, selfClosing: boolean): void {
    if (name === 'testsuites' || name === 'testsuite') {
      this.recognised = true;
      if (selfClosing) {
        if (this.depth === 0) this.closed = true;
        return;
      }
      this.depth++;
      if (name === 'testsuite') this.suites.push(attrs.get('name') ?? '');
    } else if (name === 'testcase') {
      this.endCase();
      const caseName = attrs.get('name') ?? '';
      const classname = (attrs.get('classname') ?? '').trim();
      const suites = this.suites.filter((s) => s.trim() !== '');
      const last = suites[suites.length - 1];
      if (classname !== '' && classname !== caseName.trim() && classname !== last && classname !== 'test') {
        suites.push(classname);
      }
      const suite = suites.length > 0 ? suites.join(' > ') : undefined;
      this.testCase = { name: caseName, status: 'passed', suite, file: attrs.get('file') };
      if (selfClosing) this.endCase();
    } else if (this.testCase !== undefined && (name === 'failure' || name === 'error')) {
      this.testCase.status = 'failed';
    } else if (this.testCase !== undefined && name === 'skipped' && this.testCase.status !== 'failed') {
      this.testCase.status = 'skipped';
    }
  }

  close(name: string): void {
    if (name === 'testcase') this.endCase();
    if (name !== 'testsuites' && name !== 'testsuite') return;
    this.endCase();
    if (name === 'testsuite') this.suites.pop();
    this.depth = Math.max(0, this.depth - 1);
    if (this.depth === 0) this.closed = true;
  }

  private endCase(): void {
    const t = this.testCase;
    this.testCase = undefined;
    if (t !== undefined) this.builder.add(t.name, t.status, t.suite, t.file);
  }

  build(): Run {
    this.endCase();
    if (this.closed) this.builder.summarise(this.builder.counts);
    return this.builder.build();
  }
}

/** The tally of a JUnit XML report, or undefined when `xml` holds no testsuite(s) element. */
export function readJunit(xml: string): Run | undefined {
  const reader = new JunitReader();
  let at = xml.indexOf('<');
  while (at >= 0 && !reader.closed) {
    const skip = SKIP_UNTIL.find(([start]) => xml.startsWith(start, at));
    if (skip !== undefined) {
      const end = xml.indexOf(skip[1], at + skip[0].length);
      if (end < 0) break;
      at = xml.indexOf('<', end + skip[1].length);
      continue;
    }
    const end = tagEnd(xml, at);
    if (end < 0) break;
    const tag = xml.slice(at + 1, end);
    const closing = tag.startsWith('/');
    const m = /^\/?([\w:.-]{1,100})/.exec(tag);
    if (m !== null) {
      const name = (m[1] ?? '').replace(/^.*:/, '');
      if (closing) reader.close(name);
      else reader.open(name, attributes(tag.slice(m[0].length)), tag.endsWith('/'));
    }
    at = xml.indexOf('<', end + 1);
  }
  return reader.recognised ? reader.build() : undefined;
}
