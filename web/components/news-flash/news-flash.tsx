import { VisuallyHidden } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { NEWS_FLASH_HEIGHT_PX, NEWS_FLASH_LOOP_SECONDS } from '#shared/constants.ts';

import { paths } from '#web/lib/paths.ts';

import classes from './news-flash.module.css';

export interface NewsFlashItem {
  _id: string;
  kind: 'notice' | 'circular';
  name: string;
  description: string;
  fileUrl: string | null;
}

function Items({ items, copy }: { items: NewsFlashItem[]; copy?: boolean }) {
  const { t } = useTranslation('common');
  return (
    // The copy makes the loop seamless; it is hidden from assistive technology and from the keyboard.
    <ul
      className={copy ? `${classes.group} ${classes.copy}` : classes.group}
      aria-hidden={copy || undefined}
      inert={copy}
    >
      {items.map((item) => {
        const text = (
          <>
            <span className={classes.kind}>{t(`newsFlash.${item.kind}`)}:</span>
            {item.name}
            {item.description ? ` – ${item.description}` : ''}
          </>
        );
        return (
          <li key={item._id} className={classes.item}>
            {item.fileUrl ? (
              <a className={classes.link} href={item.fileUrl} target="_blank" rel="noopener noreferrer">
                {text}
                <VisuallyHidden>{t('opensInNewTab')}</VisuallyHidden>
              </a>
            ) : (
              <span>{text}</span>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/**
 * The fixed 40px News Flash strip (spec §2, §9): the lab's notices and circulars scroll in a 40-second loop and each
 * opens its file in a new tab. The loop pauses on hover, on keyboard focus and with the Pause button (WCAG 2.2.2), and
 * does not move at all for people who ask for reduced motion.
 */
export function NewsFlash({ items, loading = false }: { items: NewsFlashItem[]; loading?: boolean }) {
  const { t } = useTranslation(['common', 'site']);
  const [paused, setPaused] = useState(false);
  return (
    <section className={classes.strip} style={{ height: NEWS_FLASH_HEIGHT_PX }} aria-label={t('newsFlash.region')}>
      <span className={classes.label} aria-hidden="true">
        {t('newsFlash.label')}
      </span>
      <div className={classes.viewport}>
        {loading ? null : items.length === 0 ? (
          <p className={classes.empty} style={{ margin: 0 }}>
            {t('newsFlash.empty')}
          </p>
        ) : (
          <div
            className={classes.track}
            data-paused={paused || undefined}
            style={{ ['--news-flash-duration' as string]: `${NEWS_FLASH_LOOP_SECONDS}s` }}
          >
            <Items items={items} />
            <Items items={items} copy />
          </div>
        )}
      </div>
      {items.length > 0 && (
        <button type="button" className={classes.toggle} onClick={() => setPaused((p) => !p)}>
          {paused ? t('newsFlash.play') : t('newsFlash.pause')}
        </button>
      )}
      {/* Expired notices and circulars leave the strip for the Archive (decision 019). */}
      <Link to={paths.archive} className={classes.toggle} aria-label={t('site:archive.linkLong')}>
        {t('site:archive.link')}
      </Link>
    </section>
  );
}
