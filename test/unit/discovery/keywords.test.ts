// Cancel words and build keywords in the eight languages.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isBuildRequest, isCancelWord, normalizeForMatch } from '../../../src/core/discovery/keywords';

const CANCEL: Record<string, string[]> = {
  English: ['no', 'cancel', 'stop', 'No.', 'CANCEL!', '  stop  ', 'never mind', 'Forget it.', 'abort'],
  Spanish: ['cancelar', '¡Cancelar!', 'para', 'no', 'olvídalo'],
  Portuguese: ['não', 'Nao', 'cancelar', 'pare', 'esqueça'],
  French: ['non', 'annuler', 'Annule !', 'arrête', 'laisse tomber'],
  German: ['nein', 'Nein!', 'abbrechen', 'stopp', 'vergiss es'],
  Italian: ['annulla', 'basta', 'ferma', 'lascia perdere'],
  Dutch: ['nee', 'annuleren', 'stoppen', 'laat maar'],
  Russian: ['нет', 'Отмена', 'отменить', 'стоп', 'хватит'],
};

const NOT_CANCEL = [
  'no idea what a CRM needs',
  'No, it is for my real estate team',
  'stop words should be ignored by the search',
  'cancel orders within 24 hours',
  'nein, es ist für mein Team',
  'нет, это для команды продаж',
  'annuler une commande doit être possible',
  'para mi equipo de ventas',
  'not sure',
  '',
  '...',
];

describe('isCancelWord', () => {
  for (const [language, words] of Object.entries(CANCEL)) {
    test(`${language}: ${words.join(', ')}`, () => {
      for (const w of words) assert.equal(isCancelWord(w), true, w);
    });
  }

  test('sentences that contain a cancel word are answers, not cancels', () => {
    for (const s of NOT_CANCEL) assert.equal(isCancelWord(s), false, s);
  });
});

const BUILD: Record<string, string[]> = {
  English: [
    'build me a CRM',
    'Build me a CRM!',
    'Can you build a dashboard for sales?',
    'create an app for my gym',
    'I want to build a todo list',
  ],
  Spanish: ['construye un CRM', 'Constrúyeme una app de reservas', '¿Puedes crear una app?', 'crea una tienda online'],
  Portuguese: ['crie um CRM para minha equipe', 'construa um site', 'quero um app de tarefas'],
  French: ['crée-moi un CRM', 'construis une application', 'Je veux créer une app de notes'],
  German: ['erstelle ein CRM', 'Bau mir eine App', 'entwickle ein Dashboard'],
  Italian: ['costruisci un CRM', 'creami un sito', 'sviluppa una app'],
  Dutch: ['bouw een CRM', 'maak een website voor mijn winkel', 'ontwikkel een app'],
  Russian: ['создай CRM', 'Сделай приложение для заметок', 'построй сайт'],
};

const NOT_BUILD = [
  'what can you do?',
  'hello',
  'rebuild the index',
  'explain this function',
  'he builds houses',
  'él cree que sí',
  'how are you',
  'faz um tempo',
];

describe('isBuildRequest', () => {
  for (const [language, texts] of Object.entries(BUILD)) {
    test(language, () => {
      for (const t of texts) assert.equal(isBuildRequest(t), true, t);
    });
  }

  test('other text is not a build request', () => {
    for (const t of NOT_BUILD) assert.equal(isBuildRequest(t), false, t);
  });
});

describe('normalizeForMatch', () => {
  test('case, accents, punctuation and ё', () => {
    assert.equal(normalizeForMatch('  ¡Olvídalo!  '), 'olvidalo');
    assert.equal(normalizeForMatch('Arrête.'), 'arrete');
    assert.equal(normalizeForMatch('Всё'), 'все');
    assert.equal(normalizeForMatch('vergiss-es'), 'vergiss es');
  });
});
