import { Popover } from '@mantine/core';
import { useEffect, useRef } from 'react';

import { DisplayControls, DisplayControlsButton } from './display-controls.tsx';

/** The narrow screens' display controls in a popover: loaded by DisplayControlsMenu on the first press, open at once. */
export function DisplayControlsPopover() {
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => button.current?.focus(), []);
  return (
    <Popover position="bottom-end" shadow="md" withArrow defaultOpened>
      <Popover.Target>
        <DisplayControlsButton ref={button} />
      </Popover.Target>
      <Popover.Dropdown>
        <DisplayControls />
      </Popover.Dropdown>
    </Popover>
  );
}
