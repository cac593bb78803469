import type * as Embla from 'embla-carousel';
import type { EmblaCarouselType, EmblaOptionsType } from 'embla-carousel';
import { useEffect, useRef, useState } from 'react';

let engine: Promise<typeof Embla> | undefined;
/** embla's engine (about 10 KB gzip), loaded once, with the first gallery drawn. */
const loadEngine = () => (engine ??= import('embla-carousel'));

/**
 * The gallery's carousel: embla-carousel-react's useEmblaCarousel, with embla's engine loaded when the gallery is
 * first drawn instead of with the home page's chunk (decision 087: the first page at most 200 KB gzip). The slides stand
 * in their row by the gallery's CSS alone; the engine only moves them, so it starts loading at mount, alongside the
 * photos' request, and takes the viewport when both are in. Returns the viewport's ref and embla's API (undefined
 * until then: the controls stay disabled and nothing advances). `options` must keep its identity between renders
 * (useMemo): a new object re-initialises the carousel with it.
 */
export function useCarousel(
  options: EmblaOptionsType,
): [(viewport: HTMLElement | null) => void, EmblaCarouselType | undefined] {
  const [viewport, setViewport] = useState<HTMLElement | null>(null);
  const [made, setMade] = useState<{ viewport: HTMLElement; carousel: EmblaCarouselType }>();
  const current = useRef(options);

  useEffect(() => {
    loadEngine().catch(() => {});
  }, []);

  useEffect(() => {
    if (!viewport) return;
    let carousel: EmblaCarouselType | undefined;
    let gone = false;
    loadEngine().then(
      ({ default: EmblaCarousel }) => {
        if (gone) return;
        carousel = EmblaCarousel(viewport, current.current);
        setMade({ viewport, carousel });
      },
      () => {}, // not loaded (a build replaced meanwhile): the slides stay as drawn, the controls disabled
    );
    return () => {
      gone = true;
      carousel?.destroy();
    };
  }, [viewport]);
  // The carousel of the viewport on screen: none once it is gone (its embla was destroyed with it).
  const carousel = made?.viewport === viewport ? made.carousel : undefined;

  useEffect(() => {
    if (current.current === options) return;
    current.current = options;
    carousel?.reInit(options);
  }, [options, carousel]);

  return [setViewport, carousel];
}
