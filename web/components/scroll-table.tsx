import { type BoxProps, Table } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface ScrollTableProps extends BoxProps {
  /** Names the scroll region for screen readers: usually the table's caption. */
  label: string;
  /** Below this width the table scrolls sideways instead of squeezing (phones). */
  minWidth: number;
  children: ReactNode;
}

/**
 * The box around every wide table: it scrolls sideways with the browser's own scrollbar, and the keyboard can reach
 * and scroll it (a focusable, named region: WCAG 2.1.1, axe scrollable-region-focusable; decision 018).
 */
export function ScrollTable({ label, minWidth, children, ...props }: ScrollTableProps) {
  const { t } = useTranslation('common');
  return (
    <Table.ScrollContainer
      type="native"
      minWidth={minWidth}
      tabIndex={0}
      role="region"
      // Worded apart from the section around it, whose heading often has the same words (axe landmark-unique).
      aria-label={t('scrollTable', { name: label })}
      {...props}
    >
      {children}
    </Table.ScrollContainer>
  );
}
