// The saved brief `.groundwork/plans/<slug>/idea-brief.md`: the eight fields as sections, the
// original request verbatim (users want it kept beside the plan), and the questions and answers
// that led to it (docs/discovery.md, "The Idea Brief"). The request sits in a fence longer than any
// run of backticks in it, so no content can close the fence early.
import { neutralizeInline, neutralizeMarkdown } from '../markdownText';
import { BRIEF_FIELDS, BRIEF_LABELS } from './discoveryTypes';
import type { BriefToSave, IdeaBrief } from './discoveryTypes';
import { fenced } from '../markdownText';

/** Every line prefixed with '> ' (an empty line with '>'), so the text stays inside the quote. */
function quoted(text: string): string {
  return text
    .split('\n')
    .map((l) => (l === '' ? '>' : `> ${l}`))
    .join('\n');
}

/** The one-line summary, or the brief's first line when the model wrote no labels. */
export function briefTitle(brief: IdeaBrief): string {
  const first = (brief.summary || brief.text).split('\n').find((l) => l.trim() !== '') ?? '';
  return first.replace(/^[#*\s>-]+/, '').trim();
}

export function renderIdeaBrief(result: BriefToSave): string {
  const { brief, originalRequest, transcript } = result;
  // A heading's text: a fence means nothing there, so everything in it is escaped.
  const title = neutralizeInline(briefTitle(brief).replace(/[\r\n]+/g, ' '));
  const parts: string[] = [`# Idea Brief${title ? `: ${title.replace(/\n/g, ' ')}` : ''}`];
  const hasFields = BRIEF_FIELDS.some((f) => brief[f].trim() !== '');
  // The fields are the model's markdown (lists, emphasis) as the person edited it: kept, but
  // without images or raw HTML, which a preview would load from anywhere.
  if (hasFields) {
    for (const field of BRIEF_FIELDS) {
      parts.push(`## ${BRIEF_LABELS[field]}\n\n${neutralizeMarkdown(brief[field].trim()) || '_Not stated._'}`);
    }
  } else {
    // The model wrote no labels: its text is the brief.
    parts.push(`## Brief\n\n${neutralizeMarkdown(brief.text.trim()) || '_Empty._'}`);
  }
  parts.push(`## Original request\n\n${fenced(originalRequest)}`);
  if (transcript.length > 0) {
    const rounds = transcript.map((r) => {
      const answer =
        r.answer === undefined || r.answer.trim() === '' ? '_No answer._' : quoted(neutralizeMarkdown(r.answer));
      return `### Round ${r.round}\n\n**Questions**\n\n${quoted(neutralizeMarkdown(r.questionsText))}\n\n**Answer**\n\n${answer}`;
    });
    parts.push(`## Discovery transcript\n\n${rounds.join('\n\n')}`);
  }
  return `${parts.join('\n\n')}\n`;
}
