import { ActionIcon, Alert, Box, Button, Center, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useReducedMotion } from '@mantine/hooks';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { GALLERY_ADVANCE_MS, GALLERY_PAGE_SIZE, GALLERY_SLIDE_WIDTH_PX } from '#shared/constants.ts';
import type { PhotoJson } from '#shared/schemas/gallery.ts';

import { usePhotoPages } from '../api.ts';
import { useCarousel } from '../use-carousel.ts';
import classes from './gallery.module.css';

const SLIDE_HEIGHT_PX = 280;

/** One photo: the resized web copy, its name and description; a placeholder if the image cannot be shown. */
function PhotoSlide({ photo }: { photo: PhotoJson }) {
  const { t } = useTranslation('gallery');
  const [broken, setBroken] = useState(false);
  const src = photo.webUrl ?? photo.fileUrl;
  return (
    <figure className={classes.figure}>
      {src && !broken ? (
        <img
          className={classes.image}
          src={src}
          alt={photo.name}
          height={SLIDE_HEIGHT_PX}
          loading="lazy"
          decoding="async"
          onError={() => setBroken(true)}
        />
      ) : (
        <Center className={classes.placeholder} h={SLIDE_HEIGHT_PX} role="img" aria-label={photo.name}>
          <Text c="gray.7">{t('brokenImage')}</Text>
        </Center>
      )}
      <figcaption className={classes.caption}>
        <Text fw={700} lineClamp={1}>
          {photo.name}
        </Text>
        <Text size="sm" lineClamp={2}>
          {photo.description}
        </Text>
      </figcaption>
    </figure>
  );
}

/**
 * The lab gallery on the home screen (spec §2, §9): photos load 3 at a time with ?skip&limit as the visitor nears the
 * end, the slides (500 px wide) advance every 3000 ms unless the mouse is over them or keyboard focus is inside,
 * previous/next buttons and dots, and an 'All Caught Up!' card after the last photo. A Pause/Play button stops the
 * movement (WCAG 2.2.2); with reduced motion asked for, it starts paused and slides move without animation.
 */
export function GalleryCarousel({ labId }: { labId: string }) {
  const { t } = useTranslation('gallery');
  const pages = usePhotoPages(labId);
  const photos = pages.data?.pages.flat() ?? [];
  const reducedMotion = useReducedMotion();
  const options = useMemo(
    () => ({ align: 'start', containScroll: 'trimSnaps', duration: reducedMotion ? 1 : 25 }) as const,
    [reducedMotion],
  );
  const [viewportRef, embla] = useCarousel(options);
  const [selected, setSelected] = useState(0);
  const [snaps, setSnaps] = useState<number[]>([]);
  const [canPrevious, setCanPrevious] = useState(false);
  const [canNext, setCanNext] = useState(false);
  const sync = useCallback(() => {
    if (!embla) return;
    setSelected(embla.selectedScrollSnap());
    setSnaps(embla.scrollSnapList());
    setCanPrevious(embla.canScrollPrev());
    setCanNext(embla.canScrollNext());
  }, [embla]);
  useEffect(() => {
    if (!embla) return;
    const first = requestAnimationFrame(sync); // embla is ready: read its first state after this commit
    embla.on('select', sync).on('reInit', sync);
    return () => {
      cancelAnimationFrame(first);
      embla.off('select', sync).off('reInit', sync);
    };
  }, [embla, sync]);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const [chosenPause, setChosenPause] = useState<boolean | null>(null);
  const paused = chosenPause ?? reducedMotion;
  const finished = !pages.hasNextPage && !pages.isPending;
  const slideCount = photos.length + (finished && photos.length ? 1 : 0);
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = pages;

  // The next 3 photos load once the visitor is one step from the end of those loaded (embla's snap points: with
  // several slides in view there are fewer steps than slides).
  useEffect(() => {
    if (!embla || !hasNextPage || isFetchingNextPage) return;
    if (selected >= embla.scrollSnapList().length - 2 || !embla.canScrollNext()) void fetchNextPage();
  }, [embla, selected, photos.length, hasNextPage, isFetchingNextPage, fetchNextPage]);

  useEffect(() => {
    if (!embla || paused || hovered || focused || slideCount < 2) return;
    const timer = window.setInterval(() => {
      if (embla.canScrollNext()) embla.scrollNext();
      else if (finished) embla.scrollTo(0); // after 'All Caught Up!', start again
    }, GALLERY_ADVANCE_MS);
    return () => window.clearInterval(timer);
  }, [embla, paused, hovered, focused, slideCount, finished]);

  if (pages.isPending)
    return (
      <Center h={SLIDE_HEIGHT_PX} role="status">
        <Group gap="xs">
          <Loader size="sm" aria-hidden="true" />
          <Text>{t('loading')}</Text>
        </Group>
      </Center>
    );
  if (pages.isError)
    return (
      <Alert color="red" variant="light" role="alert">
        <Text c="gray.9">{t('errors.fetchPhotos')}</Text>
      </Alert>
    );
  if (!photos.length)
    return (
      <Paper withBorder radius="md" p="xl" ta="center" bg="gray.0">
        <Text c="gray.8">{t('carousel.empty')}</Text>
      </Paper>
    );

  return (
    <Box
      component="section"
      aria-roledescription={t('carousel.roleDescription')}
      aria-label={t('carousel.label')}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocused(false);
      }}
    >
      <Group justify="space-between" mb="xs" wrap="nowrap">
        <Title order={2} size="h4">
          {t('carousel.title')}
        </Title>
        <Button
          size="compact-sm"
          variant="default"
          onClick={() => setChosenPause(!paused)}
          aria-label={paused ? t('carousel.playLabel') : t('carousel.pauseLabel')}
        >
          {paused ? t('carousel.play') : t('carousel.pause')}
        </Button>
      </Group>
      {/*
        Our own controls around embla (not @mantine/carousel, whose status line, "Slides" and "Previous slide" are fixed
        English): every text is in the chosen language.
      */}
      <Box pos="relative">
        <div
          className={classes.viewport}
          ref={viewportRef}
          style={{ ['--gallery-slide-width' as string]: `${GALLERY_SLIDE_WIDTH_PX}px` }}
        >
          <div className={classes.container}>
            {photos.map((photo, index) => (
              <div
                key={photo._id}
                className={classes.slide}
                role="group"
                aria-roledescription={t('carousel.slide')}
                aria-label={t('carousel.position', { number: index + 1, total: slideCount })}
              >
                <PhotoSlide photo={photo} />
              </div>
            ))}
            {finished && (
              <div
                className={classes.slide}
                role="group"
                aria-roledescription={t('carousel.slide')}
                aria-label={t('carousel.caughtUp')}
              >
                <Paper withBorder radius="md" h="100%" mih={SLIDE_HEIGHT_PX} bg="navy.0">
                  <Stack h="100%" align="center" justify="center" gap="xs" p="lg" ta="center">
                    <Title order={3} size="h3" c="navy.9">
                      {t('carousel.caughtUp')}
                    </Title>
                    <Text c="gray.8">{t('carousel.caughtUpText', { count: photos.length })}</Text>
                  </Stack>
                </Paper>
              </div>
            )}
          </div>
        </div>
        <ActionIcon
          className={classes.control}
          data-side="previous"
          variant="default"
          radius="xl"
          size={36}
          aria-label={t('carousel.previous')}
          disabled={!canPrevious}
          onClick={() => embla?.scrollPrev()}
        >
          <span aria-hidden="true">‹</span>
        </ActionIcon>
        <ActionIcon
          className={classes.control}
          data-side="next"
          variant="default"
          radius="xl"
          size={36}
          aria-label={t('carousel.next')}
          disabled={!canNext}
          onClick={() => embla?.scrollNext()}
        >
          <span aria-hidden="true">›</span>
        </ActionIcon>
      </Box>
      {snaps.length > 1 && (
        <Group className={classes.indicators} gap={4} justify="center" role="group" aria-label={t('carousel.dots')}>
          {snaps.map((_, index) => (
            <button
              key={index}
              type="button"
              className={classes.indicator}
              data-active={index === selected || undefined}
              aria-current={index === selected || undefined}
              aria-label={t('carousel.goTo', { number: index + 1 })}
              onClick={() => embla?.scrollTo(index)}
            />
          ))}
        </Group>
      )}
      <p className="visually-hidden" role="status" aria-live="polite" aria-atomic="true">
        {snaps.length > 0 ? t('carousel.status', { number: selected + 1, total: snaps.length }) : ''}
      </p>
      {isFetchingNextPage && (
        <Text size="sm" c="gray.7" role="status" mt={4}>
          {t('carousel.loadingMore', { count: GALLERY_PAGE_SIZE })}
        </Text>
      )}
    </Box>
  );
}
