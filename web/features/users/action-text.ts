import type { MessageCode, MessageParams } from '#shared/messages/index.ts';

import { translateCoded } from '#web/i18n/index.ts';

import { type Translate, translateAction } from './activity-action.ts';

/**
 * An activity-log entry's action in the reader's language. An entry written since actions have codes (decision 060)
 * is worded by its code and parameters, in every language (its days written the reader's way); an older one has only
 * its English sentence, which translateAction words when it is one of the common sentences. Call it during render of a
 * component that uses useTranslation, so it re-renders on a language switch.
 */
export function actionText(
  entry: { action: string; code: string | null; params: Record<string, unknown> | null },
  language: string,
  t: Translate,
): string {
  if (!entry.code) return translateAction(entry.action, language, t);
  return translateCoded(
    { code: entry.code as MessageCode, params: (entry.params ?? undefined) as MessageParams | undefined },
    entry.action,
  );
}
