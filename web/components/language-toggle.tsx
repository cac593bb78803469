import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';

import { setLanguage } from '#web/i18n/index.ts';

/**
 * Switches between English and Hindi; the button names the other language in that language. "हिन्दी" is drawn with a
 * face of its own glyphs only (the `hindi-word` class, web/app/global.css), so an English page does not download the
 * whole Devanagari SemiBold face for one word.
 */
export function LanguageToggle() {
  const { i18n } = useTranslation('common');
  const next = i18n.language === 'hi' ? 'en' : 'hi';
  return (
    <Button
      variant="default"
      size="sm"
      onClick={() => void setLanguage(next)}
      lang={next}
      className={next === 'hi' ? 'hindi-word' : undefined}
    >
      {next === 'hi' ? 'हिन्दी' : 'English'}
    </Button>
  );
}
