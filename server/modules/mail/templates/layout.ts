import type { MailLanguage } from '../mail.kinds.ts';

/** A message as the templates write it: the same words make the plain-text part and the HTML part. */
export interface MailContent {
  subject: string;
  greeting: string;
  /** Paragraphs; a [label, value] pair is a line such as "Subject: Fire drill". */
  body: (string | [label: string, value: string])[];
  /** The one link of the message, if any, as a button in HTML and a line in text. */
  action?: { label: string; url: string };
  /** After the link: what to do if the link is not wanted, how long it works. */
  after?: string[];
}

/** What every message ends with, and how a language names the portal. */
export interface MailFrame {
  footer: string;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const line = (part: MailContent['body'][number]) => (typeof part === 'string' ? part : `${part[0]}: ${part[1]}`);

/** The plain-text part: paragraphs apart by a blank line, the link on a line of its own. */
export function plainText(content: MailContent, frame: MailFrame): string {
  const parts = [content.greeting, ...content.body.map(line)];
  if (content.action) parts.push(`${content.action.label}:\n${content.action.url}`);
  parts.push(...(content.after ?? []), `-- \n${frame.footer}`);
  return `${parts.join('\n\n')}\n`;
}

/**
 * The HTML part: plain markup with inline styles (mail readers drop style sheets), every value escaped, the language
 * named (screen readers, and the Devanagari face), the link as a button that is also its own address in words below.
 */
export function html(content: MailContent, frame: MailFrame, language: MailLanguage): string {
  const p = (inner: string) => `<p style="margin:0 0 16px">${inner}</p>`;
  const body = content.body.map((part) =>
    typeof part === 'string'
      ? p(escapeHtml(part))
      : p(`<strong>${escapeHtml(part[0])}:</strong> ${escapeHtml(part[1])}`),
  );
  const action = content.action
    ? [
        p(
          `<a href="${escapeHtml(content.action.url)}" style="display:inline-block;padding:10px 18px;background:#1864ab;color:#ffffff;text-decoration:none;border-radius:4px;font-weight:600">${escapeHtml(content.action.label)}</a>`,
        ),
        p(`<span style="font-size:13px;color:#495057;word-break:break-all">${escapeHtml(content.action.url)}</span>`),
      ]
    : [];
  return [
    '<!doctype html>',
    `<html lang="${language}">`,
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width">',
    `<title>${escapeHtml(content.subject)}</title></head>`,
    `<body style="margin:0;padding:24px;background:#ffffff;color:#212529;font-family:'Noto Sans','Noto Sans Devanagari',Arial,sans-serif;font-size:16px;line-height:1.5">`,
    '<div style="max-width:600px">',
    p(escapeHtml(content.greeting)),
    ...body,
    ...action,
    ...(content.after ?? []).map((a) => p(escapeHtml(a))),
    `<hr style="border:0;border-top:1px solid #dee2e6;margin:24px 0 12px">`,
    `<p style="margin:0;font-size:13px;color:#495057">${escapeHtml(frame.footer)}</p>`,
    '</div></body></html>',
  ].join('\n');
}
