import type { ReactNode } from 'react';
import { Box, Center, Loader, Tabs, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { LabJson } from '#shared/schemas/lab.ts';
import { useLab } from '../api.ts';
import {
  ContactList,
  DirectorHistoryTable,
  DirectorProfile,
  LabDocuments,
  OfficeTable,
  PanelError,
  TextPoints,
  VisionMission,
} from './lab-panels.tsx';

/** The ten tabs of the lab home, in the spec's order (§2 Lab home screen). About Lab is the default. */
export const LAB_TABS = [
  'about',
  'visionMission',
  'director',
  'office',
  'roleHonour',
  'history',
  'personnel',
  'notices',
  'products',
  'contact',
] as const;
export type LabTab = (typeof LAB_TABS)[number];

/** Each tab's failure text (spec §8 Lab, Director). */
const ERROR_KEY: Record<Exclude<LabTab, 'personnel' | 'products'>, string> = {
  about: 'errors.fetchLabData',
  visionMission: 'errors.visionMission',
  director: 'errors.directorHistory',
  office: 'errors.fetchLabData',
  roleHonour: 'errors.directorHistory',
  history: 'errors.labHistory',
  notices: 'errors.fetchLabData',
  contact: 'errors.labInformation',
};

function panelFor(tab: LabTab, lab: LabJson): ReactNode {
  switch (tab) {
    case 'about':
      return <TextPoints text={lab.about} />;
    case 'visionMission':
      return <VisionMission lab={lab} />;
    case 'director':
      return <DirectorProfile director={lab.currentDirector} />;
    case 'office':
      return <OfficeTable office={lab.officeOfDirector} />;
    case 'roleHonour':
      return <DirectorHistoryTable history={lab.directorHistory} />;
    case 'history':
      return <TextPoints text={lab.LabHistoryDetails} />;
    case 'notices':
      return <LabDocuments lab={lab} />;
    case 'contact':
      return <ContactList contacts={lab.contactInfo} />;
    default:
      return null;
  }
}

export interface LabTabsProps {
  labId: string;
  /** Product & Achievements: every group's projects, patents, technologies, publications, courses (groups feature). */
  products: ReactNode;
  /** Personnel Details: the user table (people feature). */
  personnel: ReactNode;
}

/**
 * The side menu of ten tabs under the gallery (spec §2). The open tab is kept in ?tab= so it can be linked to
 * (the latest box's "View all" opens Notices & Circular). Vertical beside the content on wide screens, wrapped on top
 * on phones.
 */
export function LabTabs({ labId, products, personnel }: LabTabsProps) {
  const { t } = useTranslation('lab');
  const [params, setParams] = useSearchParams();
  const wide = useMediaQuery('(min-width: 48em)', true);
  const lab = useLab(labId);
  const requested = params.get('tab') as LabTab | null;
  const active: LabTab = requested && LAB_TABS.includes(requested) ? requested : 'about';

  const select = (value: string | null) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        if (!value || value === 'about') next.delete('tab');
        else next.set('tab', value);
        return next;
      },
      { replace: true, preventScrollReset: true },
    );

  const content = (tab: LabTab): ReactNode => {
    if (tab === 'products') return products;
    if (tab === 'personnel') return personnel;
    if (lab.isPending)
      return (
        <Center py="lg" role="status">
          <Loader size="sm" aria-label={t('loading')} />
        </Center>
      );
    if (lab.isError || !lab.data) return <PanelError>{t(ERROR_KEY[tab])}</PanelError>;
    return panelFor(tab, lab.data);
  };

  return (
    <Tabs
      value={active}
      onChange={select}
      orientation={wide ? 'vertical' : 'horizontal'}
      variant="pills"
      keepMounted={false}
    >
      <Tabs.List
        aria-label={t('tabs.label')}
        style={wide ? { minWidth: 210 } : { flexWrap: 'wrap', marginBottom: 'var(--mantine-spacing-md)' }}
      >
        {LAB_TABS.map((tab) => (
          <Tabs.Tab key={tab} value={tab}>
            {t(`tabs.${tab}`)}
          </Tabs.Tab>
        ))}
      </Tabs.List>
      {LAB_TABS.map((tab) => (
        <Tabs.Panel key={tab} value={tab} pl={wide ? 'lg' : 0}>
          <Box>
            <Title order={2} size="h3" mb="md">
              {t(`tabs.${tab}`)}
            </Title>
            {content(tab)}
          </Box>
        </Tabs.Panel>
      ))}
    </Tabs>
  );
}
