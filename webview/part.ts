// One feature's part of the panel: the element it draws into, the slices that redraw it, and (for a
// feature that streams) where a chunk of its streams goes. The app (app.ts) keeps the parts in a
// list and routes the host's messages to them.
import type { PanelStrings } from '../src/shared/panelStrings';
import type { FeatureId, StreamId } from '../src/shared/protocol/common';
import type { PanelSlices, WebviewMessage } from '../src/shared/protocol/panel';
import type { ToolLine } from '../src/shared/protocol/discovery';

export interface PanelContext {
  S: PanelStrings;
  /** The slices as the host sent them; a part's own slice is checked before `render` is called. */
  slices: Partial<PanelSlices>;
  /** Anything but a plain true is Restricted Mode: the panel then offers nothing that writes. */
  trusted: boolean;
  post(message: WebviewMessage): void;
  /** Now, on the host's clock (the sleepers' countdowns are against it). */
  now(): number;
}

export interface PanelPart {
  readonly feature: FeatureId;
  /** Besides its own and the panel's slice, the slices it reads (a change of one redraws it). */
  readonly reads?: readonly FeatureId[];
  /** Kept across redraws: a part replaces what is inside it. */
  readonly element: HTMLElement;
  /** Draws the part; its slice (`ctx.slices[feature]`) has been checked. */
  render(ctx: PanelContext): void;
  /** Model text of one of its streams; false when it cannot be placed (not on screen, or a gap). */
  append?(stream: StreamId, at: number, text: string): boolean;
  /** A tool call of one of its streams; false when it cannot be placed. */
  tool?(stream: StreamId, line: ToolLine): boolean;
}
