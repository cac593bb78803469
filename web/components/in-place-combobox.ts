import type { ComboboxProps } from '@mantine/core';
import { type CSSProperties, useState } from 'react';

/** The tallest an option list grows (Mantine's own default for Select and MultiSelect). */
const MAX_LIST_HEIGHT = 250;
/** It never shrinks below about three options, even with little room. */
const MIN_LIST_HEIGHT = 120;

/**
 * Props for a Select or MultiSelect whose option list is drawn beside its field, not portalled to the end of
 * <body>: the open list stays inside the page's landmarks and its dialog (axe `region`, decision 018). Inside a dialog
 * that scrolls, the list would be cut off at the dialog's edge, so it is kept to the room left below the field
 * (floating-ui's size middleware measures it against the dialog) and its list box scrolls within itself. Spread on the field:
 * `<MultiSelect {...inPlace} … />`.
 */
export function useInPlaceCombobox(): {
  comboboxProps: ComboboxProps;
  withScrollArea: false;
  styles: { options: CSSProperties };
} {
  const [height, setHeight] = useState(MAX_LIST_HEIGHT);
  return {
    // The list box itself scrolls, not a scroll area around it: axe takes a combobox's own list box as reachable by
    // its field's keys, while a plain scrolling box around it has no keyboard access (scrollable-region-focusable).
    withScrollArea: false,
    styles: { options: { maxHeight: height, overflowY: 'auto' } },
    comboboxProps: {
      withinPortal: false,
      // Above a dialog's sticky header (Mantine's is 1000): a list flipped up in a short dialog is drawn over the
      // header, not under it, so its options can be clicked.
      zIndex: 1001,
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

/**
 * Props that close a MultiSelect's list once an option is picked (Mantine keeps it open), so the list does not stay
 * over the fields below it; typing or a click opens it again for the next pick. Spread after useInPlaceCombobox's.
 */
export function useClosingOnPick(): {
  dropdownOpened: boolean;
  onDropdownOpen: () => void;
  onDropdownClose: () => void;
  onOptionSubmit: () => void;
} {
  const [opened, setOpened] = useState(false);
  return {
    dropdownOpened: opened,
    onDropdownOpen: () => setOpened(true),
    onDropdownClose: () => setOpened(false),
    onOptionSubmit: () => setOpened(false),
  };
}
