import { ActionIcon, Button, Group } from '@mantine/core';
import { type ComponentPropsWithoutRef, forwardRef } from 'react';
import { useTranslation } from 'react-i18next';

import { setDisplayPreferences, type TextSize, useDisplayPreferences } from '#web/lib/display-preferences.ts';

const SIZE_BUTTONS: { size: TextSize; text: string; key: string }[] = [
  { size: 'small', text: 'A−', key: 'smaller' },
  { size: 'normal', text: 'A', key: 'normal' },
  { size: 'large', text: 'A+', key: 'larger' },
];

/** Text size (A−, A, A+) and the high-contrast switch (GIGW 3.0); each shows whether it is on (aria-pressed). */
export function DisplayControls() {
  const { t } = useTranslation('common');
  const { textSize, contrast } = useDisplayPreferences();
  return (
    <Group gap={4} wrap="nowrap" role="group" aria-label={t('display.label')}>
      {SIZE_BUTTONS.map(({ size, text, key }) => (
        <Button
          key={size}
          size="compact-sm"
          variant={textSize === size ? 'filled' : 'default'}
          aria-pressed={textSize === size}
          aria-label={t(`display.${key}`)}
          title={t(`display.${key}`)}
          onClick={() => setDisplayPreferences({ textSize: size })}
          lang="en"
          px={6}
        >
          <span aria-hidden="true">{text}</span>
        </Button>
      ))}
      <Button
        size="compact-sm"
        variant={contrast === 'high' ? 'filled' : 'default'}
        aria-pressed={contrast === 'high'}
        onClick={() => setDisplayPreferences({ contrast: contrast === 'high' ? 'normal' : 'high' })}
        px={6}
      >
        <span aria-hidden="true" style={{ marginInlineEnd: 4 }}>
          ◐
        </span>
        {t('display.highContrast')}
      </Button>
    </Group>
  );
}

/** The "Aa" button that opens the text-size and contrast controls on narrow screens. */
export const DisplayControlsButton = forwardRef<HTMLButtonElement, ComponentPropsWithoutRef<'button'>>(
  function DisplayControlsButton(props, ref) {
    const { t } = useTranslation('common');
    return (
      <ActionIcon
        ref={ref}
        variant="default"
        size="lg"
        aria-label={t('display.label')}
        title={t('display.label')}
        {...props}
      >
        <span aria-hidden="true" style={{ fontWeight: 700 }}>
          Aa
        </span>
      </ActionIcon>
    );
  },
);
