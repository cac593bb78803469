import type { MailKind, MailLanguage, MailParams } from '../mail.kinds.ts';
import { en } from './en.ts';
import { hi } from './hi.ts';
import { html, type MailContent, type MailFrame, plainText } from './layout.ts';

/** A language's words for every kind of mail (templates/en.ts, templates/hi.ts): each takes its values and its link. */
export type MailTemplates = { frame: MailFrame } & {
  [K in MailKind]: (params: MailParams[K], link: string) => MailContent;
};

const TEMPLATES: Record<MailLanguage, MailTemplates> = { en, hi };

/** A rendered message: subject, plain-text part and HTML part, in one language. */
export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** Writes a mail of `kind` in `language` (English for any other), with `link` as its one link. */
export function renderMail<K extends MailKind>(
  kind: K,
  params: MailParams[K],
  language: string,
  link: string,
): RenderedMail {
  const lang: MailLanguage = language === 'hi' ? 'hi' : 'en';
  const templates = TEMPLATES[lang];
  const content = (templates[kind] as (p: MailParams[K], l: string) => MailContent)(params, link);
  return {
    subject: content.subject,
    text: plainText(content, templates.frame),
    html: html(content, templates.frame, lang),
  };
}
