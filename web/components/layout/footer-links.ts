import { paths } from '#web/lib/paths.ts';

/**
 * The site pages GIGW 3.0 asks for, linked from the footer of every page and listed in the Sitemap (decision 019).
 * `label` is a key of the site namespace.
 */
export const FOOTER_LINKS = [
  { id: 'help', label: 'footer.help', to: paths.help },
  { id: 'feedback', label: 'footer.feedback', to: paths.feedback },
  { id: 'accessibility', label: 'footer.accessibility', to: paths.accessibility },
  { id: 'sitemap', label: 'footer.sitemap', to: paths.sitemap },
  { id: 'terms', label: 'footer.terms', to: paths.terms },
  { id: 'privacy', label: 'footer.privacy', to: paths.privacy },
  { id: 'archive', label: 'footer.archive', to: paths.archive },
] as const;
