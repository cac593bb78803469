import { useState } from 'react';
import type { ComboboxProps } from '@mantine/core';

/** The tallest an option list grows (Mantine's own default for Select and MultiSelect). */
const MAX_LIST_HEIGHT = 250;
/** It never shrinks below about three options, even with little room. */
const MIN_LIST_HEIGHT = 120;

/**
 * Props for a Select or MultiSelect whose option list is drawn beside its field, not portalled to the end of
 * <body>: the open list stays inside the page's landmarks and its dialog (axe `region`, issue 35). Inside a dialog
 * that scrolls, the list would be cut off at the dialog's edge, so it is kept to the room left below the field
 * (floating-ui's size middleware measures it against the dialog) and scrolls within itself. Spread on the field:
 * `<MultiSelect {...inPlace} … />`.
 */
export function useInPlaceCombobox(): { comboboxProps: ComboboxProps; maxDropdownHeight: number } {
  const [height, setHeight] = useState(MAX_LIST_HEIGHT);
  return {
    maxDropdownHeight: height,
    comboboxProps: {
      withinPortal: false,
      zIndex: 300,
      middlewares: {
        flip: true,
        shift: true,
        size: {
          padding: 8,
          apply: ({ availableHeight }) =>
            // less the list's own padding and border
            setHeight(Math.max(MIN_LIST_HEIGHT, Math.min(MAX_LIST_HEIGHT, Math.floor(availableHeight) - 12))),
        },
      },
    },
  };
}
