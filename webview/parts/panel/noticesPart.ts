// The panel's own notices: what went wrong, the dismissible ones, Restricted Mode's banner and the
// way to open a folder.
import type { PanelContext, PanelPart } from '../../part';
import { part, renderDismissible, renderNoWorkspace, renderNotice, renderRestricted } from './controls';

export class NoticesPart implements PanelPart {
  readonly feature = 'panel';
  readonly element = part('panel');

  render(ctx: PanelContext): void {
    const { S, post } = ctx;
    const panel = ctx.slices.panel!;
    const manageTrust = () => post({ type: 'panel.command', command: 'manageTrust' });
    this.element.replaceChildren(
      ...[
        panel.notice ? renderNotice(panel.notice, 'panel-notice') : null,
        renderDismissible(S, panel.notices, (id) => post({ type: 'notice.dismiss', id })),
        ctx.trusted ? null : renderRestricted(S, manageTrust),
        panel.hasWorkspace === true
          ? null
          : renderNoWorkspace(S, () => post({ type: 'panel.command', command: 'openFolder' })),
      ].filter((n): n is HTMLElement => n !== null),
    );
  }
}
