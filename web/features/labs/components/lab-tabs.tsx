import { Center, Loader } from '@mantine/core';
import { lazy, type ReactNode, Suspense } from 'react';
import { useTranslation } from 'react-i18next';

import type { LabJson } from '#shared/schemas/lab.ts';

import { PanelError } from '#web/components/panel-error.tsx';
import { ContactList, LeaderProfile, VisionMissionCards } from '#web/components/unit/unit-panels.tsx';
import { UnitTabs } from '#web/components/unit/unit-tabs.tsx';
import { withMantineStyles } from '#web/lib/mantine-styles.ts';

import { useLab } from '../api.ts';
import { LabDocuments, LastUpdated, TextPoints } from './lab-panels.tsx';

// The table tabs load Mantine's table when first opened, not with the home page.
const OfficeTable = lazy(
  withMantineStyles(() => import('#web/components/unit/unit-tables.tsx').then((m) => ({ default: m.OfficeTable }))),
);
const DirectorHistoryTable = lazy(
  withMantineStyles(() =>
    import('#web/components/unit/unit-tables.tsx').then((m) => ({ default: m.DirectorHistoryTable })),
  ),
);

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

function panelFor(tab: LabTab, lab: LabJson, t: (key: string, values?: Record<string, string>) => string): ReactNode {
  switch (tab) {
    case 'about':
      return <TextPoints text={lab.about} />;
    case 'visionMission':
      return <VisionMissionCards vision={lab.vision} mission={lab.mission} />;
    case 'director':
      return <LeaderProfile leader={lab.currentDirector} since={(date) => t('home.inOfficeSince', { date })} />;
    case 'office':
      return <OfficeTable office={lab.officeOfDirector} caption={t('tabs.office')} empty={t('home.noOffice')} />;
    case 'roleHonour':
      return <DirectorHistoryTable history={lab.directorHistory} caption={t('tabs.roleHonour')} />;
    case 'history':
      return <TextPoints text={lab.LabHistoryDetails} />;
    case 'notices':
      return <LabDocuments lab={lab} />;
    case 'contact':
      return <ContactList contacts={lab.contactInfo} linkPhones />;
    default:
      return null;
  }
}

function PanelLoading() {
  const { t } = useTranslation('lab');
  return (
    <Center py="lg" role="status">
      <Loader size="sm" role="img" aria-label={t('loading')} />
    </Center>
  );
}

export interface LabTabsProps {
  labId: string;
  /** Product & Achievements: every group's projects, patents, technologies, publications, courses (groups feature). */
  products: ReactNode;
  /** Personnel Details: the user table (people feature). */
  personnel: ReactNode;
}

/** The lab home's ten tabs under the gallery (spec §2), each with its empty and error texts. */
export function LabTabs({ labId, products, personnel }: LabTabsProps) {
  const { t } = useTranslation('lab');
  const lab = useLab(labId);
  const tabPanel = (tab: LabTab) => {
    if (tab === 'products') return products;
    if (tab === 'personnel') return personnel;
    if (lab.isPending) return <PanelLoading />;
    if (lab.isError || !lab.data) return <PanelError>{t(ERROR_KEY[tab])}</PanelError>;
    return (
      <>
        {panelFor(tab, lab.data, t)}
        <LastUpdated date={lab.data.lastUpdated} />
      </>
    );
  };
  return (
    <UnitTabs tabs={LAB_TABS} label={t('tabs.label')} title={(tab) => t(`tabs.${tab}`)}>
      {(tab) => <Suspense fallback={<PanelLoading />}>{tabPanel(tab)}</Suspense>}
    </UnitTabs>
  );
}
