// The model the agents use: its provider and the model of each tier, this window's usage, the last
// connection check; before there is one, how to connect one.
import type { PanelStrings } from '../../../src/shared/panelStrings';
import type { ModelCommand, ModelView } from '../../../src/shared/protocol/model';
import { h, icon } from '../../dom';
import type { PanelContext, PanelPart } from '../../part';
import { button, part, sectionOf } from '../panel/controls';

/** The model the agents use, or, before there is one, how to connect one. */
export function renderModel(S: PanelStrings, model: ModelView, run: (command: ModelCommand) => void): HTMLElement {
  const body: Node[] = [];
  if (model.status === 'onboarding') {
    const text =
      model.need === 'key'
        ? S.modelNeedKey
        : model.need === 'language-model'
          ? S.modelNeedLanguageModel
          : S.modelNeedEither;
    const actions = h('div', { class: 'actions' });
    if (model.need !== 'language-model') actions.append(button(S.setApiKey, 'key', () => run('setApiKey')));
    if (model.need !== 'key')
      actions.append(button(S.findChatModel, 'extensions', () => run('findChatModels'), model.need === 'either'));
    body.push(h('p', { id: 'model-onboarding' }, text), actions);
  } else {
    const facts: Array<[string, string, string?]> = [
      [S.provider, model.provider === 'anthropic' ? S.providerAnthropic : S.providerLanguageModel],
      [S.tierComplex, model.complex || S.firstAvailable],
      [S.tierFast, model.fast || S.firstAvailable],
    ];
    if (model.usage) facts.push([S.thisWindow, model.usage, 'model-usage']);
    body.push(
      h(
        'dl',
        { class: 'model-facts', id: 'model-ready' },
        ...facts.flatMap(([k, v, id]) => [h('dt', {}, k), h('dd', { id }, v)]),
      ),
      h(
        'div',
        { class: 'actions' },
        button(S.checkConnection, 'pulse', () => run('checkModel'), true),
        button(S.selectModel, 'settings-gear', () => run('selectModel'), true),
      ),
    );
  }
  if (model.check) {
    body.push(
      h(
        'div',
        { class: `check ${model.check.ok ? 'ok' : 'failed'}`, id: 'model-check', role: 'status' },
        icon(model.check.ok ? 'pass' : 'error'),
        h('span', {}, model.check.text),
      ),
    );
  }
  return sectionOf('model', S.modelHeading, ...body);
}

export class ModelPart implements PanelPart {
  readonly feature = 'model';
  readonly element = part('model');

  render(ctx: PanelContext): void {
    this.element.replaceChildren(
      renderModel(ctx.S, ctx.slices.model!, (command) => ctx.post({ type: 'model.command', command })),
    );
  }
}
