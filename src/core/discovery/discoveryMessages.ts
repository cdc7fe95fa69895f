// What discovery says to the person, in the eight languages; questions come with the round (n/3). The
// panel's own labels go through vscode.l10n; these are the conversation's messages, which the CLI
// prints too, so they live in the core.
import { DISCOVERY_LANGUAGES } from './discoveryTypes';
import type { DiscoveryLanguage } from './discoveryTypes';

export interface DiscoveryMessages {
  /** Round 1: the questions, introduced. */
  intro(questions: string): string;
  /** Rounds 2 and 3: the questions with the round indicator "(n/3)". */
  followUp(questions: string, round: number, maxRounds: number): string;
  /** The brief is ready (a preview of it, see truncateBriefPreview). */
  complete(briefPreview: string): string;
  expired(): string;
  cancelled(): string;
  /** The model call was stopped; the answer is kept. */
  stopped(): string;
  /** Text that is not a build request, with no session: what Groundwork can do. */
  notABuild(): string;
  /** A pasted text was shortened for the model; `keptAt` keeps it whole (undefined: the brief keeps it). */
  capped(originalBytes: number, sentBytes: number, keptAt: string | undefined): string;
}

const kb = (bytes: number) => `${Math.max(1, Math.round(bytes / 1024))} KB`;

const MESSAGES: Readonly<Record<DiscoveryLanguage, DiscoveryMessages>> = {
  en: {
    intro: (q) => `Before I start building, I need to understand your idea better (1/3):\n\n${q}`,
    followUp: (q, n, max) => `Thanks. A few more questions (${n}/${max}):\n\n${q}`,
    complete: (p) =>
      `Got it. Here is the Idea Brief:\n\n${p}\n\nRead it over: you can edit it, save it as a plan, or discard it.`,
    expired: () => 'The discovery session expired. Send your build request again if you want to continue.',
    cancelled: () => 'Discovery cancelled.',
    stopped: () => 'Stopped. Your answer is saved: retry when you are ready, or add to it.',
    notABuild: () =>
      'Groundwork turns an idea into an Idea Brief before anything is built. Describe what you want to build (for example "build me a CRM for my team"), or start with Discover Idea.',
    capped: (o, s, k) =>
      `Your text (${kb(o)}) is long, so the model saw only its first ${kb(s)}. Nothing is lost: the whole text is kept ${k ? `in ${k}` : 'with the Idea Brief'}.`,
  },
  es: {
    intro: (q) => `Antes de empezar a construir, necesito entender mejor tu idea (1/3):\n\n${q}`,
    followUp: (q, n, max) => `Gracias. Un par de preguntas más (${n}/${max}):\n\n${q}`,
    complete: (p) =>
      `Entendido. Este es el Idea Brief:\n\n${p}\n\nRevísalo: puedes editarlo, guardarlo como plan o descartarlo.`,
    expired: () =>
      'La sesión de descubrimiento expiró. Envía tu solicitud de construcción de nuevo si quieres continuar.',
    cancelled: () => 'Descubrimiento cancelado.',
    stopped: () => 'Detenido. Tu respuesta está guardada: reintenta cuando quieras o añade algo más.',
    notABuild: () =>
      'Groundwork convierte una idea en un Idea Brief antes de construir nada. Describe lo que quieres construir (por ejemplo «constrúyeme un CRM para mi equipo») o empieza con Descubrir idea.',
    capped: (o, s, k) =>
      `Tu texto (${kb(o)}) es largo, así que el modelo solo vio los primeros ${kb(s)}. No se pierde nada: el texto completo se guarda ${k ? `en ${k}` : 'con el Idea Brief'}.`,
  },
  pt: {
    intro: (q) => `Antes de começar a construir, preciso entender melhor sua ideia (1/3):\n\n${q}`,
    followUp: (q, n, max) => `Obrigado. Mais algumas perguntas (${n}/${max}):\n\n${q}`,
    complete: (p) =>
      `Entendido. Este é o Idea Brief:\n\n${p}\n\nConfira: você pode editá-lo, salvá-lo como plano ou descartá-lo.`,
    expired: () => 'A sessão de descoberta expirou. Envie sua solicitação de construção novamente se quiser continuar.',
    cancelled: () => 'Descoberta cancelada.',
    stopped: () => 'Interrompido. Sua resposta está salva: tente de novo quando quiser ou complemente-a.',
    notABuild: () =>
      'O Groundwork transforma uma ideia em um Idea Brief antes de construir qualquer coisa. Descreva o que você quer construir (por exemplo "crie um CRM para minha equipe") ou comece com Descobrir ideia.',
    capped: (o, s, k) =>
      `Seu texto (${kb(o)}) é longo, então o modelo viu só os primeiros ${kb(s)}. Nada se perde: o texto completo fica guardado ${k ? `em ${k}` : 'com o Idea Brief'}.`,
  },
  fr: {
    intro: (q) => `Avant de commencer à construire, j'ai besoin de mieux comprendre ton idée (1/3) :\n\n${q}`,
    followUp: (q, n, max) => `Merci. Encore quelques questions (${n}/${max}) :\n\n${q}`,
    complete: (p) =>
      `Compris. Voici l'Idea Brief :\n\n${p}\n\nRelis-le : tu peux le modifier, l'enregistrer comme plan ou l'abandonner.`,
    expired: () => 'La session de découverte a expiré. Renvoie ta demande de construction si tu veux continuer.',
    cancelled: () => 'Découverte annulée.',
    stopped: () => 'Arrêté. Ta réponse est enregistrée : relance quand tu veux, ou complète-la.',
    notABuild: () =>
      'Groundwork transforme une idée en Idea Brief avant de construire quoi que ce soit. Décris ce que tu veux construire (par exemple « crée-moi un CRM pour mon équipe »), ou commence par Découvrir une idée.',
    capped: (o, s, k) =>
      `Ton texte (${kb(o)}) est long : le modèle n'en a vu que les ${kb(s)} premiers. Rien n'est perdu : le texte complet est conservé ${k ? `dans ${k}` : "avec l'Idea Brief"}.`,
  },
  de: {
    intro: (q) => `Bevor ich mit dem Bauen beginne, muss ich deine Idee besser verstehen (1/3):\n\n${q}`,
    followUp: (q, n, max) => `Danke. Noch ein paar Fragen (${n}/${max}):\n\n${q}`,
    complete: (p) =>
      `Verstanden. Hier ist der Idea Brief:\n\n${p}\n\nSieh ihn dir an: Du kannst ihn bearbeiten, als Plan speichern oder verwerfen.`,
    expired: () =>
      'Die Discovery-Sitzung ist abgelaufen. Sende deine Build-Anfrage erneut, wenn du fortfahren möchtest.',
    cancelled: () => 'Discovery abgebrochen.',
    stopped: () =>
      'Angehalten. Deine Antwort ist gespeichert: Versuche es erneut, wenn du so weit bist, oder ergänze sie.',
    notABuild: () =>
      'Groundwork macht aus einer Idee einen Idea Brief, bevor etwas gebaut wird. Beschreibe, was du bauen möchtest (zum Beispiel „erstelle mir ein CRM für mein Team“), oder beginne mit Idee entdecken.',
    capped: (o, s, k) =>
      `Dein Text (${kb(o)}) ist lang, daher hat das Modell nur die ersten ${kb(s)} gesehen. Nichts geht verloren: Der vollständige Text ist ${k ? `in ${k}` : 'beim Idea Brief'} gespeichert.`,
  },
  it: {
    intro: (q) => `Prima di iniziare a costruire, ho bisogno di capire meglio la tua idea (1/3):\n\n${q}`,
    followUp: (q, n, max) => `Grazie. Ancora qualche domanda (${n}/${max}):\n\n${q}`,
    complete: (p) =>
      `Capito. Ecco l'Idea Brief:\n\n${p}\n\nRileggilo: puoi modificarlo, salvarlo come piano o scartarlo.`,
    expired: () =>
      'La sessione di scoperta è scaduta. Invia di nuovo la tua richiesta di costruzione se vuoi continuare.',
    cancelled: () => 'Scoperta annullata.',
    stopped: () => 'Interrotto. La tua risposta è salvata: riprova quando vuoi, oppure aggiungi qualcosa.',
    notABuild: () =>
      "Groundwork trasforma un'idea in un Idea Brief prima di costruire qualsiasi cosa. Descrivi cosa vuoi costruire (per esempio «creami un CRM per il mio team») oppure inizia con Scopri idea.",
    capped: (o, s, k) =>
      `Il tuo testo (${kb(o)}) è lungo, quindi il modello ne ha visto solo i primi ${kb(s)}. Non si perde nulla: il testo completo è conservato ${k ? `in ${k}` : "con l'Idea Brief"}.`,
  },
  nl: {
    intro: (q) => `Voordat ik begin met bouwen, moet ik je idee beter begrijpen (1/3):\n\n${q}`,
    followUp: (q, n, max) => `Bedankt. Nog een paar vragen (${n}/${max}):\n\n${q}`,
    complete: (p) =>
      `Begrepen. Hier is de Idea Brief:\n\n${p}\n\nLees hem na: je kunt hem bewerken, als plan opslaan of weggooien.`,
    expired: () => 'De discovery-sessie is verlopen. Stuur je build-verzoek opnieuw als je wilt doorgaan.',
    cancelled: () => 'Discovery geannuleerd.',
    stopped: () => 'Gestopt. Je antwoord is bewaard: probeer het opnieuw wanneer je wilt, of vul het aan.',
    notABuild: () =>
      'Groundwork maakt van een idee een Idea Brief voordat er iets gebouwd wordt. Beschrijf wat je wilt bouwen (bijvoorbeeld "bouw een CRM voor mijn team"), of begin met Idee verkennen.',
    capped: (o, s, k) =>
      `Je tekst (${kb(o)}) is lang, dus het model zag alleen de eerste ${kb(s)}. Er gaat niets verloren: de volledige tekst staat ${k ? `in ${k}` : 'bij de Idea Brief'}.`,
  },
  ru: {
    intro: (q) => `Прежде чем начать сборку, мне нужно лучше понять вашу идею (1/3):\n\n${q}`,
    followUp: (q, n, max) => `Спасибо. Ещё несколько вопросов (${n}/${max}):\n\n${q}`,
    complete: (p) =>
      `Понял. Вот Idea Brief:\n\n${p}\n\nПроверьте его: его можно отредактировать, сохранить как план или отклонить.`,
    expired: () => 'Сессия уточнения идеи истекла. Отправьте запрос на сборку снова, если хотите продолжить.',
    cancelled: () => 'Уточнение идеи отменено.',
    stopped: () => 'Остановлено. Ваш ответ сохранён: повторите, когда будете готовы, или дополните его.',
    notABuild: () =>
      'Groundwork превращает идею в Idea Brief, прежде чем что-либо строить. Опишите, что вы хотите создать (например, «создай CRM для моей команды»), или начните с команды «Уточнить идею».',
    capped: (o, s, k) =>
      `Ваш текст (${kb(o)}) длинный, поэтому модель увидела только первые ${kb(s)}. Ничего не потеряно: полный текст сохранён ${k ? `в ${k}` : 'вместе с Idea Brief'}.`,
  },
};

export function discoveryMessages(lang: DiscoveryLanguage): DiscoveryMessages {
  return MESSAGES[lang] ?? MESSAGES.en;
}

/** The language's English name, as the role's `Language:` line expects it. */
export const LANGUAGE_NAMES: Readonly<Record<DiscoveryLanguage, string>> = {
  en: 'English',
  es: 'Spanish',
  pt: 'Portuguese',
  fr: 'French',
  de: 'German',
  it: 'Italian',
  nl: 'Dutch',
  ru: 'Russian',
};

export function isDiscoveryLanguage(value: unknown): value is DiscoveryLanguage {
  return typeof value === 'string' && (DISCOVERY_LANGUAGES as readonly string[]).includes(value);
}

/**
 * A locale ('pt-br', 'de-AT', 'zh-cn'), a code ('es') or an English name ('Spanish') as a
 * discovery language; English when none of the eight fits.
 */
export function toDiscoveryLanguage(locale: string | undefined): DiscoveryLanguage {
  const text = (locale ?? '').trim().toLowerCase();
  const code = text.split(/[-_]/, 1)[0] ?? '';
  if (isDiscoveryLanguage(code)) return code;
  const byName = (Object.keys(LANGUAGE_NAMES) as DiscoveryLanguage[]).find(
    (l) => LANGUAGE_NAMES[l].toLowerCase() === text,
  );
  return byName ?? 'en';
}
