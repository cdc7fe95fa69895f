// Just enough of the DOM for the panel's drawing code (webview/*.ts builds elements with
// document.createElement and sets text through textContent) to run under Node, plus a tiny
// selector for assertions. Custom elements (vscode-button…) are plain elements here: what is
// checked is what the panel builds and posts, not how Lit draws it.

export class FakeNode {
  parent: FakeElement | undefined;
  readonly childNodes: FakeNode[] = [];

  get parentNode(): FakeElement | null {
    return this.parent ?? null;
  }

  get textContent(): string {
    return this.childNodes.map((c) => c.textContent).join('');
  }
}

export class FakeText extends FakeNode {
  constructor(readonly data: string) {
    super();
  }

  override get textContent(): string {
    return this.data;
  }
}

type Listener = (event: { type: string; preventDefault(): void; key?: string }) => void;

export class FakeElement extends FakeNode {
  readonly attributes = new Map<string, string>();
  private readonly listeners = new Map<string, Listener[]>();
  value = '';
  checked = false;
  disabled = false;
  hidden = false;
  open = false;
  scrollTop = 0;
  scrollHeight = 0;
  readonly classList = {
    toggle: (name: string, force?: boolean) => {
      const names = new Set((this.getAttribute('class') ?? '').split(/\s+/).filter(Boolean));
      const on = force ?? !names.has(name);
      if (on) names.add(name);
      else names.delete(name);
      this.setAttribute('class', [...names].join(' '));
      return on;
    },
  };

  constructor(readonly tagName: string) {
    super();
  }

  override get textContent(): string {
    return super.textContent;
  }

  override set textContent(text: string) {
    this.replaceChildren(new FakeText(text));
  }

  get id(): string {
    return this.getAttribute('id') ?? '';
  }

  setAttribute(name: string, value: string): void {
    this.attributes.set(name, String(value));
  }

  getAttribute(name: string): string | null {
    return this.attributes.get(name) ?? null;
  }

  hasAttribute(name: string): boolean {
    return this.attributes.has(name);
  }

  removeAttribute(name: string): void {
    this.attributes.delete(name);
  }

  append(...nodes: Array<FakeNode | string>): void {
    for (const n of nodes) {
      const node = typeof n === 'string' ? new FakeText(n) : n;
      node.parent?.childNodes.splice(node.parent.childNodes.indexOf(node), 1);
      node.parent = this;
      this.childNodes.push(node);
    }
  }

  replaceChildren(...nodes: Array<FakeNode | string>): void {
    for (const c of this.childNodes) c.parent = undefined;
    this.childNodes.length = 0;
    this.append(...nodes);
  }

  contains(node: FakeNode | null): boolean {
    for (let n: FakeNode | undefined = node ?? undefined; n; n = n.parent) if (n === this) return true;
    return false;
  }

  addEventListener(type: string, listener: Listener): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }

  /** A click as a person makes it (a disabled control takes none). */
  click(): void {
    if (this.hasAttribute('disabled')) return;
    for (const l of this.listeners.get('click') ?? []) l({ type: 'click', preventDefault() {} });
  }

  focus(): void {}

  /** How many times it was scrolled into view. */
  scrolledIntoView = 0;

  scrollIntoView(): void {
    this.scrolledIntoView++;
  }

  /** `#id`, `.class`, `tag`, or `tag.class` / `tag#id`: the first match in document order. */
  find(selector: string): FakeElement | undefined {
    return this.findAll(selector)[0];
  }

  findAll(selector: string): FakeElement[] {
    const m = /^([a-z0-9-]*)(?:#([\w-]+))?(?:\.([\w-]+))?$/.exec(selector);
    if (!m) throw new Error(`fakeDom: unsupported selector ${selector}`);
    const [, tag, id, cls] = m;
    const out: FakeElement[] = [];
    const walk = (el: FakeElement) => {
      for (const c of el.childNodes) {
        if (!(c instanceof FakeElement)) continue;
        const classes = (c.getAttribute('class') ?? '').split(/\s+/);
        if ((!tag || c.tagName === tag) && (!id || c.id === id) && (!cls || classes.includes(cls))) out.push(c);
        walk(c);
      }
    };
    walk(this);
    return out;
  }
}

/** What globalThis.document was before the fake replaced it (in Node: nothing), while it is replaced. */
let replaced: { had: boolean; value: unknown } | undefined;

/**
 * Installs a fake `document` on globalThis (what webview/dom.ts calls) and returns it; a test file
 * that installs one calls removeFakeDocument after each test (the process may run other files).
 */
export function installFakeDocument(): {
  createElement(tag: string): FakeElement;
  createTextNode(text: string): FakeText;
  activeElement: null;
} {
  const doc = {
    createElement: (tag: string) => new FakeElement(tag),
    createTextNode: (text: string) => new FakeText(text),
    activeElement: null,
  };
  const g = globalThis as { document?: unknown };
  replaced ??= { had: 'document' in g, value: g.document };
  g.document = doc;
  return doc;
}

/** Puts back what globalThis.document was before installFakeDocument. */
export function removeFakeDocument(): void {
  if (!replaced) return;
  const g = globalThis as { document?: unknown };
  if (replaced.had) g.document = replaced.value;
  else delete g.document;
  replaced = undefined;
}

/** The sections as one root, for selecting in them. */
export function rootOf(nodes: Node[]): FakeElement {
  const root = new FakeElement('div');
  root.append(...(nodes as unknown as FakeNode[]));
  return root;
}
