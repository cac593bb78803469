import type { Cadre, Role } from '#shared/constants.ts';

// The demo lab: a defence research laboratory for fire, explosive and environment safety. Every name, number and
// address here is made up.

export const DEMO_LAB = {
  name: 'Centre for Fire, Explosive and Environment Safety',
  domain: 'Fire, explosive and environment safety',
  about: [
    'The Centre for Fire, Explosive and Environment Safety is a laboratory of the defence research establishment.',
    'It develops technologies for fire prevention, detection and suppression in ships, aircraft, armoured vehicles and ammunition depots.',
    'It sets safety norms for the storage, transport and handling of explosives and ammunition, and licenses explosive storehouses of the Services.',
    'It studies the environmental impact of defence activities and develops techniques to clean soil and water contaminated by explosives and fuels.',
    'The lab runs accredited fire test facilities, a blast and fragmentation range and an environmental chemistry laboratory.',
    'Its scientists train officers of the Army, Navy, Air Force and ordnance factories in fire and explosive safety every year.',
  ].join(' '),
  vision: 'To be a centre of excellence for fire, explosive and environment safety of the armed forces and the nation.',
  mission: [
    'Develop fire detection, suppression and protection systems for defence platforms.',
    'Frame and enforce safety standards for explosives, ammunition and their storage.',
    'Assess and mitigate the environmental impact of defence activities.',
    'Train the Services and industry in fire, explosive and environment safety.',
  ].join('\n'),
  history: [
    'The lab began in 1952 as the Fire Research Cell of the Defence Science Organisation in Delhi.',
    'In 1982 it became the Defence Institute of Fire Research, with its first large-scale fire test gallery.',
    'In 1992 the Explosives and Environment Safety divisions joined it and it took its present name.',
    'In 2008 it commissioned the blast and fragmentation test range and in 2015 the environmental chemistry laboratory.',
    'In 2021 its fire test facilities received national accreditation, and in 2024 it certified the first indigenous clean-agent suppression system for submarines.',
  ].join('\n'),
  contactInfo: [
    { type: 'Address', label: 'Office', value: 'Defence Research Campus, Timarpur, Delhi 110054' },
    { type: 'Phone', label: 'Reception', value: '011-2390 1100' },
    { type: 'Phone', label: 'Fire Test Facility', value: '011-2390 1245' },
    { type: 'Email', label: 'Director', value: 'director@lab.local' },
    { type: 'Email', label: 'Administration', value: 'admin.office@lab.local' },
    { type: 'Other', label: 'Fax', value: '011-2390 1199' },
  ],
} as const;

/** Past directors; the current one is the director account. */
export const PAST_DIRECTORS = [
  {
    name: 'Dr. S. Venkataraman',
    from: '2011-04-01',
    to: '2015-06-30',
    about: 'Built the large-scale fire test gallery and led the first fire safety audit of naval dockyards.',
  },
  {
    name: 'Dr. Meenakshi Chauhan',
    from: '2015-07-01',
    to: '2020-12-31',
    about: 'Set up the environmental chemistry laboratory and the bioremediation programme for firing ranges.',
  },
  {
    name: 'Dr. Prakash Rao Hegde',
    from: '2021-01-01',
    to: '2024-03-31',
    about: 'Led the accreditation of the fire test facilities and the explosives licensing portal.',
  },
] as const;
export const DIRECTOR_FROM = '2024-04-01';

export const DIRECTOR_OFFICE = [
  {
    name: 'Shri Naresh Kumar',
    designation: 'Private Secretary to Director',
    contactNumber: '011-2390 1101',
    email: 'ps.director@lab.local',
  },
  {
    name: 'Lt Col Ajay Rathore',
    designation: 'Staff Officer',
    contactNumber: '011-2390 1102',
    email: 'so.director@lab.local',
  },
  {
    name: 'Smt. Rekha Arora',
    designation: 'Stenographer',
    contactNumber: '011-2390 1103',
    email: 'steno.director@lab.local',
  },
  { name: 'Shri Om Prakash', designation: 'Office Assistant', contactNumber: '011-2390 1104', email: '' },
];

export interface DemoGroup {
  key: string;
  name: string;
  description: string;
  about: string;
  vision: string;
  mission: string;
  history: string;
  building: string;
  phone: string;
  email: string;
  pastHead: { name: string; from: string; to: string; about: string };
  headFrom: string;
  office: { name: string; designation: string; contactNumber: string; email: string }[];
  notices: [string, string][];
  circulars: [string, string][];
  projects: [string, string][];
  patents: [string, string][];
  technologies: [string, string][];
  courses: [string, string][];
  publications: [string, string][];
}

export const DEMO_GROUPS: DemoGroup[] = [
  {
    key: 'fire',
    name: 'Fire Safety Research Group',
    description:
      'Fire detection, suppression and protection for ships, aircraft, vehicles and buildings of the Services.',
    about:
      'The group studies how fires start and spread in confined defence platforms. It designs and tests detection and suppression systems, fire-retardant materials and protective clothing. It runs the large-scale fire test gallery and the cone calorimeter laboratory.',
    vision: 'No loss of life or platform to fire in the armed forces.',
    mission: 'Develop, test and certify fire protection systems and materials for defence platforms.',
    history:
      'Formed in 1982 with the fire test gallery.\nAdded the cone calorimeter and smoke toxicity laboratory in 2004.\nCertified the clean-agent suppression system for submarines in 2024.',
    building: 'Block A, Fire Test Complex',
    phone: '011-2390 1240',
    email: 'fsrg@lab.local',
    pastHead: {
      name: 'Dr. Ravi Shankar Prasad',
      from: '2016-01-01',
      to: '2022-06-30',
      about: 'Led the development of the water-mist system for engine rooms.',
    },
    headFrom: '2022-07-01',
    office: [
      { name: 'Shri Mahesh Kumar', designation: 'Section Officer', contactNumber: '4241', email: 'so.fsrg@lab.local' },
      { name: 'Ms. Kiran Bala', designation: 'Assistant', contactNumber: '4242', email: '' },
    ],
    notices: [
      ['Fire drill in Block A on 5 December', 'All staff of Block A assemble at the north lawn when the siren sounds.'],
      ['Cone calorimeter maintenance', 'The cone calorimeter is not available from 10 to 14 December for calibration.'],
    ],
    circulars: [
      ['Hot work permit procedure (revised)', 'Revised procedure for welding and cutting inside test galleries.'],
    ],
    projects: [
      [
        'Clean-agent suppression for armoured vehicles',
        'Crew-compartment fire suppression within 250 ms using a clean agent.',
      ],
      ['Fire-retardant composites for naval interiors', 'Low-smoke, low-toxicity composite panels for ship interiors.'],
    ],
    patents: [
      [
        'Water-mist nozzle with self-cleaning orifice',
        'Indian patent granted 2023 for a nozzle that resists clogging.',
      ],
    ],
    technologies: [['Linear heat sensing cable', 'Technology transferred to two Indian firms for ammunition depots.']],
    courses: [['Fire safety officers course', 'Two-week course for fire officers of the Services, held each March.']],
    publications: [
      ['Smoke toxicity of cable insulation materials', 'Journal of Fire Sciences, 2025.'],
      ['Suppression of lithium-ion battery fires by water mist', 'Fire Safety Journal, 2026.'],
    ],
  },
  {
    key: 'explosives',
    name: 'Explosives Safety and Storage Group',
    description:
      'Safety norms, licensing and audits for the storage, transport and handling of explosives and ammunition.',
    about:
      'The group frames the explosives storage and transport regulations of the Services and licenses explosive storehouses. It carries out safety audits of ammunition depots and ordnance factories, and investigates accidents. It runs the blast and fragmentation test range.',
    vision: 'Zero explosive accidents in defence establishments.',
    mission: 'Set, audit and improve the safety of explosives across their life cycle.',
    history:
      'Formed in 1992 when the Explosives Safety division joined the lab.\nCommissioned the blast and fragmentation range in 2008.\nLaunched online licensing of explosive storehouses in 2023.',
    building: 'Block C, Explosives Complex',
    phone: '011-2390 1310',
    email: 'essg@lab.local',
    pastHead: {
      name: 'Shri Gopal Krishna Menon',
      from: '2014-05-01',
      to: '2021-09-30',
      about: 'Revised the quantity-distance tables for ammunition storage.',
    },
    headFrom: '2021-10-01',
    office: [
      { name: 'Shri Baldev Singh', designation: 'Section Officer', contactNumber: '4311', email: 'so.essg@lab.local' },
      { name: 'Smt. Usha Rani', designation: 'Assistant', contactNumber: '4312', email: '' },
    ],
    notices: [
      ['Blast range closed on 12 December', 'No trials at the blast range: annual inspection of the bunkers.'],
      ['Safety audit schedule, Q4', 'Audit teams and dates for ammunition depots in the fourth quarter.'],
    ],
    circulars: [['Explosives transport by road: checklist', 'Updated checklist for vehicles carrying explosives.']],
    projects: [
      ['Quantity-distance software for depots', 'Computes safe distances for mixed ammunition stacks.'],
      ['Blast-resistant storehouse design', 'Earth-covered magazine with reduced safety distances.'],
    ],
    patents: [['Blast mitigating barrier with water walls', 'Indian patent application filed 2025.']],
    technologies: [['Explosive vapour detector', 'Hand-held detector for nitro-explosive traces.']],
    courses: [['Explosives safety course', 'One-week course for depot commanders.']],
    publications: [
      ['Sympathetic detonation in stacked munitions', 'Propellants, Explosives, Pyrotechnics, 2025.'],
      ['Risk-based licensing of explosive storehouses', 'Defence Science Journal, 2026.'],
    ],
  },
  {
    key: 'environment',
    name: 'Environment Safety Group',
    description: 'Environmental impact of defence activities, pollution control and remediation of contaminated sites.',
    about:
      'The group assesses the environmental impact of firing ranges, depots and factories. It develops bioremediation for soil and water contaminated by explosives and fuels, and monitors air and noise at defence sites. It runs the environmental chemistry laboratory.',
    vision: 'Defence activities in harmony with the environment.',
    mission: 'Measure, prevent and remediate pollution from defence activities.',
    history:
      'Formed in 1992 as the Environment Safety division.\nOpened the environmental chemistry laboratory in 2015.\nCleaned its first firing range by bioremediation in 2019.',
    building: 'Block D, Environment Laboratory',
    phone: '011-2390 1420',
    email: 'ensg@lab.local',
    pastHead: {
      name: 'Dr. Nandita Sen',
      from: '2015-01-01',
      to: '2020-12-31',
      about: 'Set up the bioremediation programme for firing ranges.',
    },
    headFrom: '2021-01-01',
    office: [
      { name: 'Shri Tarun Bisht', designation: 'Section Officer', contactNumber: '4421', email: 'so.ensg@lab.local' },
      { name: 'Ms. Shabnam Ali', designation: 'Assistant', contactNumber: '4422', email: '' },
    ],
    notices: [
      ['Sampling visit to Pokhran range', 'Team leaves on 8 December for soil sampling; return 15 December.'],
      ['Fume hood certification', 'All fume hoods of Block D will be tested on 3 December.'],
    ],
    circulars: [
      ['Disposal of laboratory chemical waste', 'Procedure for segregating and handing over chemical waste.'],
    ],
    projects: [
      ['Bioremediation of RDX-contaminated soil', 'Microbial consortium that degrades RDX and TNT in range soil.'],
      ['Noise mapping of firing ranges', 'Noise contours for ranges near villages.'],
    ],
    patents: [['Bacterial consortium for TNT degradation', 'Indian patent granted 2022.']],
    technologies: [['Bio-digester for remote posts', 'Cold-climate bio-digester for high-altitude posts.']],
    courses: [['Environmental management for defence sites', 'Course for station environment officers.']],
    publications: [
      ['Perchlorate in groundwater near propellant plants', 'Environmental Monitoring and Assessment, 2025.'],
      ['Field trial of RDX bioremediation', 'Journal of Hazardous Materials, 2026.'],
    ],
  },
  {
    key: 'hazard',
    name: 'Hazard Modelling and Risk Assessment Group',
    description:
      'Computer models of fire, blast and toxic release, and quantitative risk assessment of defence installations.',
    about:
      'The group models fire growth, smoke movement, blast waves and toxic gas dispersion. It carries out quantitative risk assessments of depots, fuel farms and factories, and builds the simulation tools the other groups use.',
    vision: 'Every safety decision backed by sound models and data.',
    mission: 'Model hazards and quantify risks so that installations are designed and run safely.',
    history:
      'Formed in 2010 as the Modelling Cell.\nBecame a group in 2016 with its own computing cluster.\nReleased the depot risk assessment toolkit in 2025.',
    building: 'Block B, Second Floor',
    phone: '011-2390 1530',
    email: 'hmra@lab.local',
    pastHead: {
      name: 'Dr. Arun Kumar Jha',
      from: '2016-04-01',
      to: '2023-03-31',
      about: 'Built the computing cluster and the smoke movement model.',
    },
    headFrom: '2023-04-01',
    office: [
      { name: 'Shri Vijay Pal', designation: 'Section Officer', contactNumber: '4531', email: 'so.hmra@lab.local' },
      { name: 'Ms. Preeti Kaur', designation: 'Assistant', contactNumber: '4532', email: '' },
    ],
    notices: [
      ['Cluster downtime on 6 December', 'The computing cluster is off from 09:00 to 17:00 for an upgrade.'],
      ['Risk assessment review meeting', 'Review of the fuel farm study on 11 December in the conference room.'],
    ],
    circulars: [['Use of licensed simulation software', 'Licences, installation and who to ask for access.']],
    projects: [
      ['Depot risk assessment toolkit', 'Quantitative risk assessment of ammunition depots.'],
      ['Toxic gas dispersion in tunnels', 'Model of gas spread in underground storage.'],
    ],
    patents: [['Method for real-time blast overpressure mapping', 'Indian patent application filed 2026.']],
    technologies: [['Smoke movement model for ships', 'Zone model used in ship design reviews.']],
    courses: [['Quantitative risk assessment workshop', 'Three-day workshop for safety engineers.']],
    publications: [
      ['Bayesian networks for depot risk', 'Reliability Engineering and System Safety, 2025.'],
      ['CFD of fire in ship engine rooms', 'Fire Technology, 2026.'],
    ],
  },
  {
    key: 'coordination',
    name: 'Technical Coordination and Administration Group',
    description: 'Planning, coordination, administration, stores, Hindi and the Director’s office.',
    about:
      'The group plans and coordinates the lab’s projects, manages administration, stores and purchase, and runs the Hindi cell and the technical information centre. It supports the Director’s office.',
    vision: 'A lab where research is never held up by paperwork.',
    mission: 'Plan, coordinate and support the lab’s work efficiently and transparently.',
    history:
      'The administration and planning sections were merged in 2012.\nThe technical information centre joined in 2018.\nThe lab went paperless for letters in 2025.',
    building: 'Administrative Block',
    phone: '011-2390 1110',
    email: 'tcag@lab.local',
    pastHead: {
      name: 'Shri Devendra Nath Tripathi',
      from: '2017-01-01',
      to: '2022-12-31',
      about: 'Brought in the e-office system for files and letters.',
    },
    headFrom: '2023-01-01',
    office: [
      {
        name: 'Shri Satish Chandra',
        designation: 'Section Officer',
        contactNumber: '4111',
        email: 'so.tcag@lab.local',
      },
      { name: 'Smt. Poonam Gupta', designation: 'Assistant', contactNumber: '4112', email: '' },
    ],
    notices: [
      ['Hindi Pakhwada prize distribution', 'Prizes for the Hindi Pakhwada competitions on 4 December.'],
      ['Annual stock taking', 'Stores will not issue items from 15 to 19 December.'],
    ],
    circulars: [['Leave during year end', 'Apply for leave between 20 December and 5 January by 1 December.']],
    projects: [
      ['E-office for the lab', 'Paperless files, letters and approvals.'],
      ['Technical information centre digitisation', 'Scanned reports and a searchable catalogue.'],
    ],
    patents: [['Records retention scheduler', 'Copyright registered 2024.']],
    technologies: [['Letter tracking system', 'Docket and acknowledgement register used by the lab.']],
    courses: [['Noting and drafting', 'Course for new administrative staff.']],
    publications: [
      ['Annual report 2025', 'The lab’s annual report.'],
      ['Technical newsletter, issue 42', 'Quarterly newsletter of the lab.'],
    ],
  },
];

export interface DemoPerson {
  name: string;
  gender: 'Male' | 'Female';
  role: Exclude<Role, 'pending_director'>;
  cadre: Cadre;
  designation: string;
  /** Key of DEMO_GROUPS. */
  group: string;
  skills: string[];
  qualifications: string[];
  about: string;
}

const sci = (d: "'B'" | "'C'" | "'D'") => `Scientist ${d}`;
const to = (d: "'A'" | "'B'") => `Technical Officer ${d}`;

/** The approved staff: a director, an admin, a head (associate director) per group, and employees of every cadre. */
export const DEMO_STAFF: DemoPerson[] = [
  {
    name: 'Dr. Rajesh Kumar Srivastava',
    gender: 'Male',
    role: 'director',
    cadre: 'Other',
    designation: 'Director',
    group: 'coordination',
    skills: ['Combustion', 'Fire dynamics', 'R&D management'],
    qualifications: ['PhD, Mechanical Engineering, IIT Kanpur', 'M.Tech, Thermal Engineering'],
    about: 'Director of the lab since April 2024; thirty years in fire research.',
  },
  {
    name: 'Manoj Kumar Bhatia',
    gender: 'Male',
    role: 'admin',
    cadre: 'Admin',
    designation: 'Admin Officer',
    group: 'coordination',
    skills: ['Administration', 'E-office', 'Portal administration'],
    qualifications: ['MBA, Human Resources'],
    about: 'Administers the portal and the establishment section.',
  },
  // group heads (associate directors)
  {
    name: 'Dr. Anjali Deshpande',
    gender: 'Female',
    role: 'associate_director',
    cadre: 'DRDS',
    designation: sci("'D'"),
    group: 'fire',
    skills: ['Fire suppression', 'Clean agents'],
    qualifications: ['PhD, Chemical Engineering, IISc Bengaluru'],
    about: 'Heads the Fire Safety Research Group.',
  },
  {
    name: 'Dr. Suresh Chandra Pillai',
    gender: 'Male',
    role: 'associate_director',
    cadre: 'DRDS',
    designation: sci("'D'"),
    group: 'explosives',
    skills: ['Explosives safety', 'Quantity-distance', 'Accident investigation'],
    qualifications: ['PhD, Chemistry, University of Pune'],
    about: 'Heads the Explosives Safety and Storage Group.',
  },
  {
    name: 'Dr. Farah Naaz Siddiqui',
    gender: 'Female',
    role: 'associate_director',
    cadre: 'DRDS',
    designation: sci("'D'"),
    group: 'environment',
    skills: ['Bioremediation', 'Environmental chemistry'],
    qualifications: ['PhD, Environmental Science, JNU'],
    about: 'Heads the Environment Safety Group.',
  },
  {
    name: 'Dr. Vivek Raghunathan',
    gender: 'Male',
    role: 'associate_director',
    cadre: 'DRDS',
    designation: sci("'D'"),
    group: 'hazard',
    skills: ['CFD', 'Risk assessment', 'High-performance computing'],
    qualifications: ['PhD, Aerospace Engineering, IIT Madras'],
    about: 'Heads the Hazard Modelling and Risk Assessment Group.',
  },
  {
    name: 'Dr. Harpreet Singh Gill',
    gender: 'Male',
    role: 'associate_director',
    cadre: 'DRDS',
    designation: sci("'D'"),
    group: 'coordination',
    skills: ['Project planning', 'Technology transfer'],
    qualifications: ['PhD, Physics, Panjab University'],
    about: 'Heads the Technical Coordination and Administration Group.',
  },
  // employees
  ...(
    [
      [
        'Dr. Amit Kumar Yadav',
        'Male',
        'DRDS',
        sci("'C'"),
        'fire',
        ['Water mist', 'Nozzle design'],
        'PhD, Mechanical Engineering',
      ],
      [
        'Pooja Bhattacharya',
        'Female',
        'DRDS',
        sci("'B'"),
        'fire',
        ['Fire-retardant materials', 'Cone calorimetry'],
        'M.Tech, Polymer Science',
      ],
      [
        'Ramesh Chand Meena',
        'Male',
        'DRTC',
        to("'B'"),
        'fire',
        ['Fire test gallery operation'],
        'B.Tech, Fire Engineering',
      ],
      ['Sunil Dutt Sharma', 'Male', 'DRTC', to("'A'"), 'fire', ['Instrumentation'], 'Diploma, Electronics'],
      ['Naveen Chauhan', 'Male', 'DRTC', to("'A'"), 'fire', ['Detector testing'], 'Diploma, Instrumentation'],
      [
        'Dr. Lakshmi Narayanan',
        'Female',
        'DRDS',
        sci("'C'"),
        'explosives',
        ['Energetic materials', 'Thermal analysis'],
        'PhD, Chemistry',
      ],
      ['Arvind Kulkarni', 'Male', 'DRDS', sci("'B'"), 'explosives', ['Blast modelling'], 'M.Tech, Civil Engineering'],
      ['Deepak Rawat', 'Male', 'DRTC', to("'B'"), 'explosives', ['Blast range trials'], 'B.Sc, Physics'],
      ['Sneha Patil', 'Female', 'DRTC', to("'A'"), 'explosives', ['Safety audits'], 'B.Tech, Chemical Engineering'],
      [
        'Dr. Priyanka Mukherjee',
        'Female',
        'DRDS',
        sci("'C'"),
        'environment',
        ['Microbiology', 'Bioremediation'],
        'PhD, Microbiology',
      ],
      [
        'Imran Qureshi',
        'Male',
        'DRDS',
        sci("'B'"),
        'environment',
        ['Air quality monitoring'],
        'M.Tech, Environmental Engineering',
      ],
      ['Mohit Bansal', 'Male', 'DRDS', sci("'B'"), 'environment', ['Groundwater chemistry'], 'M.Sc, Chemistry'],
      ['Geeta Negi', 'Female', 'DRTC', to("'A'"), 'environment', ['Sample analysis', 'HPLC'], 'B.Sc, Chemistry'],
      [
        'Karthik Subramanian',
        'Male',
        'DRDS',
        sci("'C'"),
        'hazard',
        ['CFD', 'OpenFOAM'],
        'M.Tech, Aerospace Engineering',
      ],
      [
        'Nidhi Agarwal',
        'Female',
        'DRDS',
        sci("'B'"),
        'hazard',
        ['Risk assessment', 'Python'],
        'M.Tech, Industrial Safety',
      ],
      [
        'Abhishek Tiwari',
        'Male',
        'DRTC',
        to("'B'"),
        'hazard',
        ['Cluster administration', 'Linux'],
        'B.Tech, Computer Science',
      ],
      [
        'Sunita Malhotra',
        'Female',
        'Admin',
        'Admin Officer',
        'coordination',
        ['Establishment', 'Pay and allowances'],
        'M.Com',
      ],
      ['Rakesh Kumar Saini', 'Male', 'Admin', 'Store Officer', 'coordination', ['Stores', 'GeM purchase'], 'B.Com'],
      ['Jagdish Prasad', 'Male', 'Other', 'Security Officer', 'coordination', ['Security', 'Fire wardens'], 'B.A.'],
    ] as const
  ).map(([name, gender, cadre, designation, group, skills, qualification]): DemoPerson => ({
    name,
    gender,
    role: 'employee',
    cadre,
    designation,
    group,
    skills: [...skills],
    qualifications: [qualification],
    about: `${designation} in the ${DEMO_GROUPS.find((g) => g.key === group)!.name}.`,
  })),
];

/** Registrations waiting for the administrator (Pending User Approvals). */
export const DEMO_PENDING: (Omit<DemoPerson, 'role' | 'group'> & { role: 'employee' | 'pending_director' })[] = [
  {
    name: 'Ritu Saxena',
    gender: 'Female',
    role: 'employee',
    cadre: 'DRDS',
    designation: sci("'B'"),
    skills: ['Polymer chemistry'],
    qualifications: ['M.Sc, Chemistry'],
    about: 'Joined the lab on transfer; waiting for approval.',
  },
  {
    name: 'Dr. Alok Nath Mishra',
    gender: 'Male',
    role: 'pending_director',
    cadre: 'DRDS',
    designation: sci("'D'"),
    skills: ['Propellants'],
    qualifications: ['PhD, Chemical Engineering'],
    about: 'Posted as Associate Director (Propellant Safety); waiting for approval.',
  },
  {
    name: 'Vinod Kumar',
    gender: 'Male',
    role: 'employee',
    cadre: 'DRTC',
    designation: to("'A'"),
    skills: ['Electrical maintenance'],
    qualifications: ['Diploma, Electrical Engineering'],
    about: 'New technical officer; waiting for approval.',
  },
];

export const DELHI_ADDRESSES = [
  'C-42, Defence Colony, New Delhi 110024',
  '17, Probyn Road, Timarpur, Delhi 110054',
  'B-9/12, Vasant Kunj, New Delhi 110070',
  'Flat 304, Sector 12, Dwarka, New Delhi 110078',
  '56, Model Town II, Delhi 110009',
  'H-23, Rajouri Garden, New Delhi 110027',
  '221, Mayur Vihar Phase I, Delhi 110091',
  'Type IV/8, DRDO Residential Complex, Timarpur, Delhi 110054',
  'E-5, Greater Kailash I, New Delhi 110048',
  '14/3, Shakti Nagar, Delhi 110007',
];

/** Lab notices, circulars, products and advertisements: [name, description, days ago, valid for days]. */
export const LAB_ITEMS = {
  notice: [
    ['Republic Day celebrations 2027', 'Programme and duties for the Republic Day function at the lab.', 2, 70],
    ['Annual fire safety week', 'Talks, drills and a poster competition from 8 to 14 December.', 6, 30],
    ['Vigilance Awareness Week pledge', 'All staff take the integrity pledge in the auditorium.', 18, 20],
    [
      'Power shutdown in the Administrative Block',
      'No power on Saturday from 10:00 to 14:00 for maintenance.',
      40,
      null,
    ],
  ],
  circular: [
    ['Revised office timings for winter', 'Office hours 09:00 to 17:30 from 1 November to 28 February.', 4, 100],
    [
      'Use of personal devices in technical areas',
      'Mobile phones and pen drives are not allowed in Blocks A to D.',
      12,
      null,
    ],
    ['Annual performance appraisal: schedule', 'Self-appraisal due by 31 December on the portal.', 25, 40],
  ],
  product: [
    ['Clean-agent fire suppression system', 'Fire suppression for submarine compartments, certified 2024.'],
    ['Linear heat sensing cable', 'Detects overheating along cable trays and ammunition stacks.'],
    ['Explosive vapour detector', 'Hand-held detector of nitro-explosive traces.'],
  ],
  advertisement: [
    ['Junior Research Fellowships 2026-27', 'Walk-in interview for six JRF positions in fire and environment safety.'],
    ['Tender: fume hoods for Block D', 'Limited tender for eight ducted fume hoods.'],
  ],
} as const;

/** Gallery scenes drawn with SVG. */
export const GALLERY = [
  {
    title: 'Large-scale fire test gallery',
    description: 'A pool fire test in the fire test gallery.',
    scene: {
      sky: ['#2b2d42', '#8d99ae'] as [string, string],
      ground: '#3d3d3d',
      shapes:
        '<rect x="200" y="300" width="800" height="260" fill="#5c5c5c"/><rect x="240" y="340" width="720" height="220" fill="#1f1f1f"/>' +
        '<ellipse cx="600" cy="520" rx="160" ry="40" fill="#ff7b00"/><path d="M470 520 Q520 360 600 300 Q640 400 700 330 Q760 430 730 520 Z" fill="#ffb700"/>' +
        '<path d="M530 520 Q580 420 610 380 Q640 440 680 420 Q690 480 670 520 Z" fill="#fff3b0"/>',
    },
  },
  {
    title: 'Blast and fragmentation range',
    description: 'Earth-covered bunkers at the blast range.',
    scene: {
      sky: ['#4a90c2', '#d8ecf7'] as [string, string],
      ground: '#a68a64',
      shapes:
        '<ellipse cx="300" cy="560" rx="220" ry="110" fill="#6b8f4e"/><rect x="250" y="520" width="100" height="60" fill="#555"/>' +
        '<ellipse cx="860" cy="560" rx="260" ry="130" fill="#5f8146"/><rect x="800" y="515" width="110" height="65" fill="#555"/>' +
        '<circle cx="1020" cy="140" r="60" fill="#fff7c2"/>',
    },
  },
  {
    title: 'Environmental chemistry laboratory',
    description: 'Soil samples from a firing range under analysis.',
    scene: {
      sky: ['#e8f1f2', '#cfe3e6'] as [string, string],
      ground: '#b7c4c7',
      shapes:
        '<rect x="120" y="380" width="960" height="40" fill="#6c7a7d"/>' +
        [0, 1, 2, 3, 4, 5]
          .map(
            (i) =>
              `<rect x="${180 + i * 150}" y="250" width="50" height="130" rx="10" fill="${['#2a9d8f', '#e9c46a', '#f4a261', '#e76f51', '#264653', '#8ab17d'][i]}" fill-opacity="0.8"/>`,
          )
          .join(''),
    },
  },
  {
    title: 'Fire safety week 2025',
    description: 'Staff and families at the fire extinguisher demonstration.',
    scene: {
      sky: ['#87ceeb', '#e0f4ff'] as [string, string],
      ground: '#6aa84f',
      shapes:
        [0, 1, 2, 3, 4, 5, 6]
          .map(
            (i) =>
              `<circle cx="${170 + i * 140}" cy="470" r="28" fill="#8d5524"/><rect x="${145 + i * 140}" y="500" width="50" height="90" rx="12" fill="${['#c0392b', '#2980b9', '#27ae60', '#8e44ad', '#d35400', '#16a085', '#2c3e50'][i]}"/>`,
          )
          .join('') + '<rect x="560" y="380" width="40" height="110" rx="8" fill="#d62828"/>',
    },
  },
  {
    title: 'Hindi Pakhwada 2025',
    description: 'Prize winners of the Hindi essay competition.',
    scene: {
      sky: ['#f6d365', '#fda085'] as [string, string],
      ground: '#8e5b3c',
      shapes:
        '<rect x="260" y="260" width="680" height="300" fill="#7b2d26"/><rect x="300" y="300" width="600" height="80" fill="#fef3c7"/>',
      // Drawn with the shipped Devanagari font (demo-files.ts), not SVG text: the machine may have no such font.
      banner: { text: 'हिंदी पखवाड़ा', x: 600, y: 340, size: 44, colour: '#7b2d26' },
    },
  },
  {
    title: 'Visit of the Scientific Advisor',
    description: 'The Scientific Advisor reviewing the clean-agent suppression system.',
    scene: {
      sky: ['#cfd9df', '#e2ebf0'] as [string, string],
      ground: '#9aa5ab',
      shapes:
        '<rect x="150" y="220" width="640" height="340" fill="#f8f9fa" stroke="#495057" stroke-width="6"/>' +
        [0, 1, 2, 3, 4]
          .map(
            (i) =>
              `<rect x="${200 + i * 115}" y="300" width="70" height="240" rx="30" fill="#c1121f"/><rect x="${222 + i * 115}" y="270" width="26" height="34" fill="#6c757d"/>`,
          )
          .join('') +
        [0, 1, 2]
          .map(
            (i) =>
              `<circle cx="${900 + i * 90}" cy="420" r="30" fill="#8d5524"/><rect x="${870 + i * 90}" y="455" width="60" height="130" rx="14" fill="${['#1d3557', '#6c757d', '#2a9d8f'][i]}"/>`,
          )
          .join(''),
    },
  },
];

/** Letters: subjects and where they came from. */
export const LETTER_SUBJECTS = [
  'Annual fire safety audit of ammunition depots',
  'Nomination for the explosives safety course',
  'Procurement of cone calorimeter spares',
  'Revision of quantity-distance tables',
  'Hindi Pakhwada: nomination of judges',
  'Environmental clearance for the new test range',
  'Request for fire test of naval interior panels',
  'Visit of the Scientific Advisor to the lab',
  'Release of funds for the bioremediation project',
  'Accident report: minor fire in Block A',
  'Deputation of scientists to the blast trials at Chandipur',
  'Renewal of explosive storehouse licence',
  'Training of fire officers of the Air Force',
  'Calibration of gas chromatograph',
  'Noise survey of the firing range at Mahajan',
  'Annual maintenance contract for fire alarm system',
  'Submission of the quarterly progress report',
  'Transfer of technology: linear heat sensing cable',
  'Invitation to the national seminar on fire safety',
  'Security clearance for project staff',
  'Disposal of condemned stores',
  'Medical examination of staff working with explosives',
  'Implementation of e-office for letters',
  'Purchase of personal protective equipment',
  'Review meeting on the depot risk assessment toolkit',
  'Sampling of groundwater near the propellant plant',
  'Grant of permission for foreign publication',
  'Request for explosives safety inspection of the ordnance factory',
  'Updation of the lab telephone directory',
  'Leave travel concession: block year clarification',
  'Report on the fire drill in the Administrative Block',
  'Proposal for the smoke toxicity test facility',
  'Minutes of the safety committee meeting',
  'Issue of identity cards to contract staff',
  'Hazard analysis of the new fuel farm',
  'Republic Day parade: tableau on fire safety',
];
export const LETTER_ESTABLISHMENTS = [
  'DRDO HQ, New Delhi',
  'Integrated HQ of MoD (Army)',
  'Naval HQ, New Delhi',
  'Air HQ, New Delhi',
  'Directorate of Ordnance Services',
  'Ordnance Factory Board',
  'Central Pollution Control Board',
  'Delhi Fire Service',
  'Petroleum and Explosives Safety Organisation',
  'CPWD, Delhi',
];
export const LETTER_CATEGORIES = ['Technical', 'Administrative', 'Procurement', 'Personnel', 'Safety', 'Finance'];
export const LETTER_LANGUAGES = ['English', 'English', 'Hindi', 'Bilingual'];
export const LETTER_CHANNELS = ['Post', 'Email', 'Hand delivery', 'DRONA', 'Speed Post'];

/** Close groups: [name, purpose, from (days ago), to (days ahead), member group keys, remarks, document names]. */
export const CLOSE_GROUPS = [
  {
    groupName: 'Submarine Fire Suppression Review Board',
    groupPurpose: 'Review the trials and the certification file of the clean-agent suppression system for submarines.',
    fromDaysAgo: 60,
    toDaysAhead: 120,
    members: ['fire', 'hazard'],
    size: 5,
    adminRemarks: 'Documents are restricted to board members.',
    documents: ['Trial report, phase 2.pdf', 'Certification checklist.pdf'],
  },
  {
    groupName: 'Ammunition Depot Audit Team 2026',
    groupPurpose: 'Plan and report the safety audits of ammunition depots for 2026.',
    fromDaysAgo: 200,
    toDaysAhead: 40,
    members: ['explosives'],
    size: 4,
    adminRemarks: '',
    documents: ['Audit plan 2026.pdf', 'Depot visit schedule.pdf'],
  },
  {
    groupName: 'Hindi Pakhwada Committee',
    groupPurpose: 'Organise the Hindi Pakhwada competitions and the prize distribution.',
    fromDaysAgo: 90,
    toDaysAhead: 20,
    members: ['coordination', 'environment'],
    size: 4,
    adminRemarks: 'Committee ends after the prize distribution.',
    documents: ['Competition rules.pdf'],
  },
];
