import { lazy, Suspense, useState } from 'react';

import { withMantineStyles } from '#web/lib/mantine-styles.ts';

import { DisplayControlsButton } from './display-controls.tsx';

// The popover (floating positioning) loads when the button is first pointed at, focused or pressed, not with the
// first page (decision 058); until then the same button stands in, and a press opens the popover once it has loaded.
const loadPopover = withMantineStyles(() => import('./display-controls-popover.tsx'));
const DisplayControlsPopover = lazy(() => loadPopover().then((m) => ({ default: m.DisplayControlsPopover })));

/** On narrow screens the same controls sit behind one button, so the header still fits 320 px. */
export function DisplayControlsMenu() {
  const [wanted, setWanted] = useState(false);
  const standIn = (
    <DisplayControlsButton
      aria-expanded={false}
      onPointerEnter={() => void loadPopover()}
      onFocus={() => void loadPopover()}
      onClick={() => setWanted(true)}
    />
  );
  if (!wanted) return standIn;
  return (
    <Suspense fallback={standIn}>
      <DisplayControlsPopover />
    </Suspense>
  );
}
