// Which messages start discovery (build keywords) and which end it (cancel words), in the eight
// languages: English, Spanish, Portuguese, French, German, Italian, Dutch and Russian
// (docs/discovery.md, "Build keywords and cancel words").

/**
 * Lower-case, without diacritics (Russian ё→е), punctuation turned into spaces, spaces collapsed:
 * "¡Cancelar!" and "cancelar" compare equal, so do "Annulé." and "annule".
 */
export function normalizeForMatch(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/ё/g, 'е')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

// Whole-message cancel words and phrases: "no", "cancel", "stop", "nein"… A message
// cancels only when it is one of these, whole (punctuation, case and accents aside), so that "no
// idea what a CRM needs" or "stop words should be ignored" is an answer, not a cancel.
const CANCEL_PHRASES: readonly string[] = [
  // English
  'no',
  'nope',
  'cancel',
  'cancel it',
  'cancel that',
  'cancel discovery',
  'stop',
  'stop it',
  'abort',
  'quit',
  'exit',
  'never mind',
  'nevermind',
  'forget it',
  'no thanks',
  'no thank you',
  // Spanish
  'no',
  'cancelar',
  'cancela',
  'cancelalo',
  'para',
  'parar',
  'detente',
  'olvidalo',
  'no gracias',
  'dejalo',
  // Portuguese
  'nao',
  'cancelar',
  'cancela',
  'cancele',
  'parar',
  'pare',
  'esquece',
  'esqueca',
  'nao obrigado',
  'nao obrigada',
  'deixa pra la',
  // French
  'non',
  'annuler',
  'annule',
  'arrete',
  'arreter',
  'stop',
  'laisse tomber',
  'non merci',
  'oublie',
  // German
  'nein',
  'abbrechen',
  'abbruch',
  'stopp',
  'halt',
  'vergiss es',
  'nein danke',
  'lass es',
  // Italian
  'no',
  'annulla',
  'annullare',
  'ferma',
  'fermati',
  'basta',
  'lascia perdere',
  'no grazie',
  'stop',
  // Dutch
  'nee',
  'annuleren',
  'annuleer',
  'stoppen',
  'stop',
  'laat maar',
  'nee bedankt',
  'afbreken',
  // Russian
  'нет',
  'отмена',
  'отменить',
  'отмени',
  'стоп',
  'хватит',
  'прекрати',
  'не надо',
  'нет спасибо',
  'забудь',
].map(normalizeForMatch);
const CANCEL_SET = new Set(CANCEL_PHRASES);

/** True when the whole message is a cancel word or phrase in one of the eight languages. */
export function isCancelWord(text: string): boolean {
  const norm = normalizeForMatch(text);
  return norm !== '' && CANCEL_SET.has(norm);
}

// Build requests, phrases in the eight languages. Matched on word boundaries anywhere in the
// message, after normalizeForMatch, so "Build me a CRM!" and "¿Puedes construir una app?" both
// start discovery, while "rebuild the index" does not.
const BUILD_PHRASES: readonly string[] = [
  // English
  'build me',
  'build a',
  'build an',
  'build the',
  'build my',
  'build something',
  'build this',
  'i want to build',
  'i need to build',
  'can you build',
  'help me build',
  "let's build",
  'lets build',
  'create an app',
  'create a app',
  'create an application',
  'create a website',
  'create a tool',
  'create a program',
  'create a service',
  'create a bot',
  'create a cli',
  'create an api',
  'create a game',
  'create a dashboard',
  'create me',
  'make me',
  'make an app',
  'make a website',
  'make a tool',
  'develop a',
  'develop an',
  'code me',
  'write me an app',
  'write an app',
  'scaffold',
  'set up a project',
  'new project',
  'i need an app',
  'i need a tool',
  'i need a website',
  'i want an app',
  // Spanish
  'construye',
  'construir',
  'constrúyeme',
  'construyeme',
  'crea una app',
  'crea un',
  'crea una',
  'créame',
  'creame',
  'crear una app',
  'crear un',
  'crear una',
  'desarrolla',
  'desarrollar',
  'hazme',
  'haz una app',
  'programa un',
  'programa una',
  'necesito una app',
  'quiero una app',
  'nuevo proyecto',
  // Portuguese
  'construa',
  'construir',
  'constrói',
  'constroi',
  'crie um',
  'crie uma',
  'criar um',
  'criar uma',
  'desenvolva',
  'desenvolver',
  'faça um',
  'faca um',
  'faça uma',
  'faca uma',
  'preciso de um app',
  'quero um app',
  'novo projeto',
  // French
  'construis',
  'construire',
  'crée moi',
  'crée un',
  'crée une',
  'créer un',
  'créer une',
  'creer un',
  'creer une',
  'développe',
  'developpe',
  'développer',
  'developper',
  'fais moi',
  'fabrique',
  'programme un',
  'programme une',
  "j'ai besoin d'une app",
  'nouveau projet',
  // German
  'baue',
  'bau mir',
  'bauen',
  'erstelle',
  'erstellen',
  'entwickle',
  'entwickeln',
  'programmiere',
  'programmieren',
  'mach mir',
  'ich brauche eine app',
  'neues projekt',
  // Italian
  'costruisci',
  'costruire',
  'costruiscimi',
  'crea',
  'creare',
  'creami',
  'sviluppa',
  'sviluppare',
  'fammi un',
  'fammi una',
  'realizza',
  'realizzare',
  'programma un',
  'programma una',
  'nuovo progetto',
  // Dutch
  'bouw',
  'bouwen',
  'bouw een',
  'bouw me',
  'maak een',
  'maak me',
  'maak voor mij',
  'creëer',
  'creeer',
  'ontwikkel',
  'ontwikkelen',
  'programmeer',
  'nieuw project',
  // Russian
  'создай',
  'создать',
  'создайте',
  'сделай',
  'сделайте',
  'построй',
  'построить',
  'разработай',
  'разработать',
  'напиши приложение',
  'напиши программу',
  'новый проект',
].map(normalizeForMatch);

/** True when the message asks to build something (and so starts discovery), in any of the eight languages. */
export function isBuildRequest(text: string): boolean {
  const padded = ` ${normalizeForMatch(text)} `;
  return BUILD_PHRASES.some((p) => p !== '' && padded.includes(` ${p} `));
}
