import type { FeedbackJson, SitePageJson } from '#shared/schemas/site.ts';

import type { FeedbackWithPeople, SitePage } from './site.service.ts';

export const presentSitePage = (p: SitePage): SitePageJson => ({
  key: p.key,
  en: p.en,
  hi: p.hi,
  updatedAt: p.updatedAt?.toISOString() ?? null,
  isDefault: p.isDefault,
});

export const presentFeedback = (f: FeedbackWithPeople): FeedbackJson => ({
  _id: f.id,
  name: f.name,
  email: f.email,
  category: f.category,
  subject: f.subject,
  message: f.message,
  status: f.status,
  reply: f.reply,
  repliedAt: f.repliedAt?.toISOString() ?? null,
  repliedBy: f.replier ? { _id: f.replier.id, name: f.replier.name } : null,
  user: f.sender ? { _id: f.sender.id, name: f.sender.name } : null,
  createdAt: f.createdAt.toISOString(),
});
