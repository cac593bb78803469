import { createContext, type ReactNode, useContext } from 'react';

/** A letter as another feature's part on its card needs it. */
export interface LetterExtraProps {
  letter: { _id: string; letterId: string; letterSub: string };
}

/**
 * A place on each letter's card for what another feature adds (e-Files' "Put in a file" and "in file <number>"): the
 * route file that composes the features provides what to draw (a feature never imports another, STYLE.md).
 */
export const LetterExtrasContext = createContext<((letter: LetterExtraProps['letter']) => ReactNode) | null>(null);

export function LetterExtras({ letter }: LetterExtraProps) {
  const render = useContext(LetterExtrasContext);
  return render ? render(letter) : null;
}
