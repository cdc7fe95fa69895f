// What the chat participant shows of a session (the panel's own view models): a discovery round's
// questions with the follow-up button, the failure, the Idea Brief with Build This, a brainstorm's
// round and result, the listings of /status and /cases. Model and person text is rendered through
// markdown-it (as VS Code's chat renders markdown) to prove it stays text: no link, image or HTML.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import MarkdownIt from 'markdown-it';
import { needsTrust } from '../../../../src/core/chat/chatRequest';
import type { BrainstormViewModel } from '../../../../src/core/brainstorm/brainstormView';
import { discoveryView } from '../../../../src/core/discovery/discoveryView';
import {
  brainstormReply,
  discoveryReply,
  fill,
  listing,
  type ChatWords,
} from '../../../../src/vscode/chat/chatMarkdown';
import { FIELDS, sessionView } from '../../discovery/sessionView';

const WORDS: ChatWords = {
  discoveryRound: 'Discovery · round {0}/{1}',
  request: 'Your idea: {0}',
  answerHint: 'Answer here.',
  noPreference: 'No preference: choose what is usual.',
  noPreferenceLabel: 'No preference',
  discoveryFailed: 'Could not send: {0}',
  interrupted: 'Interrupted.',
  notABuild: 'Not a build.',
  briefTitle: 'Idea Brief',
  briefSavedAt: 'Saved as {0}.',
  briefUnsaved: 'Not saved.',
  buildThis: 'Build This',
  brainstormDeeper: 'Brainstorm Deeper',
  damaged: '{0} cannot be read: {1}',
  idle: 'Nothing under way.',
  brainstormRound: 'Brainstorm · {0} · round {1}/{2}',
  brainstormHint: 'Answer here.',
  summarizeNow: 'Summarize now',
  brainstormRunning: 'Working.',
  brainstormFailed: 'Stopped: {0}',
  brainstormStopped: 'Stopped.',
  brainstormComplete: 'Complete: {0}',
  keyInsights: 'Key insights',
  decisions: 'Decisions',
  openQuestions: 'Open questions',
  briefField: {
    summary: 'Summary',
    problem: 'Problem',
    users: 'Users',
    mvpScope: 'MVP',
    technology: 'Tech',
    outOfScope: 'Out',
    keyDecisions: 'Decisions',
    constraints: 'Constraints',
  },
};

// VS Code's chat renders without HTML; linkify is on, as in the chat view.
const md = new MarkdownIt({ html: false, linkify: false });
const html = (parts: string[]) => md.render(parts.join('\n\n'));
const HOSTILE =
  '[click](command:workbench.action.terminal.new) ![x](https://evil.example/?q=k) <img src=x onerror=alert(1)> `code` # head';

function assertInert(rendered: string): void {
  assert.ok(!/<a |<img|<code|<h\d|<script|<table/.test(rendered), rendered);
  assert.ok(!rendered.includes('command:') || !/href="command:/.test(rendered), rendered);
}

describe('discoveryReply', () => {
  test("a round's questions, numbered, with the round, the request, the answer hint, the round file and the No preference button", () => {
    const reply = discoveryReply(
      discoveryView({ kind: 'session', view: sessionView(), message: 'A few questions:' }),
      WORDS,
      '.groundwork/discovery/panel.md',
    );
    const text = reply.markdown.join('\n\n');
    assert.match(text, /\*\*Discovery · round 1\/3\*\*/);
    assert.match(text, /Your idea: build me a CRM/);
    assert.match(text, /^1\. Who\\\?$/m);
    assert.match(text, /^2\. Where\\\?$/m);
    assert.deepEqual(reply.files, ['.groundwork/discovery/panel.md']);
    assert.deepEqual(reply.followups, [{ prompt: WORDS.noPreference, label: 'No preference', command: 'discover' }]);
    const rendered = html(reply.markdown);
    assert.match(rendered, /<ol>\s*<li>Who\?<\/li>\s*<li>Where\?<\/li>\s*<\/ol>/);
  });

  test("the model's questions and lead-in, and the person's request, stay text", () => {
    const view = sessionView({
      originalRequest: HOSTILE,
      rounds: [{ round: 1, questionsText: '', intro: '', questions: [HOSTILE] }],
    });
    const reply = discoveryReply(discoveryView({ kind: 'session', view, message: HOSTILE }), WORDS);
    const rendered = html(reply.markdown);
    assertInert(rendered);
    assert.ok(rendered.includes('[click](command:workbench.action.terminal.new)'), rendered);
  });

  test('a failed answer says what the core said; an interrupted one says so', () => {
    const failed = discoveryReply(
      discoveryView(
        { kind: 'session', view: sessionView() },
        { failure: { reason: 'error', error: 'rate <b>limited</b>' } },
      ),
      WORDS,
    );
    assert.match(failed.markdown.join('\n'), /Could not send: rate \\<b\\>limited\\<\\\/b\\>/);
    assertInert(html(failed.markdown));
    const interrupted = discoveryReply(
      discoveryView({ kind: 'session', view: sessionView({ state: 'answer-pending' }) }),
      WORDS,
    );
    assert.match(interrupted.markdown.join('\n'), /Interrupted\./);
  });

  test('the Idea Brief: its fields, where it was saved (an anchor), Build This and Brainstorm Deeper', () => {
    const card = {
      request: 'build me a CRM',
      brief: FIELDS,
      transcript: [],
      message: 'Here it is',
      savedAt: '.groundwork/plans/crm/idea-brief.md',
    };
    const reply = discoveryReply(discoveryView({ kind: 'brief', card }), WORDS);
    const text = reply.markdown.join('\n\n');
    assert.match(text, /\*\*Summary:\*\* A CRM for a bakery/);
    assert.match(text, /Saved as `\.groundwork\/plans\/crm\/idea-brief\.md`\./);
    assert.deepEqual(reply.anchors, ['.groundwork/plans/crm/idea-brief.md']);
    assert.deepEqual(reply.followups, [
      { prompt: '', label: 'Build This', command: 'build' },
      { prompt: 'A CRM for a bakery', label: 'Brainstorm Deeper', command: 'brainstorm' },
    ]);
    const unsaved = discoveryReply(
      discoveryView({ kind: 'brief', card: { ...card, savedAt: undefined } as never }),
      WORDS,
    );
    assert.match(unsaved.markdown.join('\n'), /Not saved\./);
  });

  test('no conversation, and text that was not a build request', () => {
    assert.deepEqual(discoveryReply(discoveryView({ kind: 'none' }), WORDS).markdown, ['Nothing under way.']);
    assert.deepEqual(discoveryReply(discoveryView({ kind: 'none' }, { hint: true }), WORDS).markdown, ['Not a build.']);
  });
});

describe('brainstormReply', () => {
  const header = { slug: 'exports', topic: 'Invoice <export>', round: 2, minRounds: 1, maxRounds: 5, rounds: [] };

  test("a round's questions with their angles, and Summarize now", () => {
    const view: BrainstormViewModel = {
      ...header,
      status: 'questions',
      questions: [{ text: 'Which formats?', angle: 'product' as never, priority: 1 }],
      actions: [],
    };
    const reply = brainstormReply(view, WORDS);
    const text = reply.markdown.join('\n\n');
    assert.match(text, /Brainstorm · Invoice \\<export\\> · round 2\/5/);
    assert.match(text, /^1\. Which formats\\\? \*product\*$/m);
    assert.deepEqual(reply.followups, [{ prompt: 'Summarize now', label: 'Summarize now', command: 'brainstorm' }]);
    assertInert(html(reply.markdown));
  });

  test('the result: insights, decisions, open questions, its documents as anchors, and Build This', () => {
    const view: BrainstormViewModel = {
      status: 'complete',
      slug: 'exports',
      topic: 'Invoice export',
      rounds: 2,
      keyInsights: [HOSTILE],
      decisions: ['CSV first'],
      openQuestions: [],
      documentPath: '.groundwork/plans/exports/00-brainstorming.md',
      contextPath: '.groundwork/plans/exports/00-brainstorming.context.md',
      actions: [],
    };
    const reply = brainstormReply(view, WORDS);
    assert.deepEqual(reply.anchors, [view.documentPath, view.contextPath]);
    assert.deepEqual(reply.followups, [{ prompt: 'exports', label: 'Build This', command: 'build' }]);
    assert.doesNotMatch(reply.markdown.join('\n'), /Open questions/, 'an empty list is left out');
    assertInert(html(reply.markdown));
  });
});

describe('listing', () => {
  test('rows escaped, the rest counted; an empty list says so', () => {
    const text = listing(
      'Builds',
      [{ label: 'crm <b>', status: 'running', detail: '[x](command:y)' }],
      'None.',
      3,
      '… and {0} more',
    );
    assert.match(text, /^\*\*Builds\*\*/);
    assert.match(text, /- crm \\<b\\> · \*running\* · \\\[x\\\]\\\(command\\:y\\\)/);
    assert.match(text, /- … and 3 more/);
    assertInert(md.render(text));
    assert.equal(listing('Runs', [], 'None.'), '**Runs**\n\nNone.');
  });
});

describe('fill and refusal', () => {
  test('fill puts values in their places and leaves unknown ones', () => {
    assert.equal(fill('{0} of {1} ({2})', 1, 'x'), '1 of x ({2})');
  });

  test('Restricted Mode refuses every route that starts a session, answers or builds; reading is allowed', () => {
    for (const route of [
      'discover-start',
      'discover-answer',
      'brainstorm-start',
      'brainstorm-answer',
      'build',
    ] as const)
      assert.equal(needsTrust(route), true, route);
    for (const route of ['status', 'cases', 'help', 'discover-busy', 'brainstorm-busy', 'too-long'] as const)
      assert.equal(needsTrust(route), false, route);
  });
});
