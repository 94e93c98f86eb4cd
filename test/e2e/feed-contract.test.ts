import { describeFeedContract } from './feed-contract.ts';

// The same end-to-end checks for every feed: the two shipped ones and a fixture written against the plugin API alone.
describeFeedContract({
  plugin: 'utility-power-outages',
  source: 'plugins',
  feedId: 'utility.power-outages',
  section: 'PowerOutages',
  path: '/power-outages',
  systemTopic: 'utility-power-outages',
  answer: (outages) => ({ outages }),
  newItem: (id) => ({ id, feeder: 'F1', areas: ['Kandy'], timeOff: '2026-11-22T08:15:00+05:30', timeRestored: null }),
  storeTable: 'power_outages',
});

describeFeedContract({
  plugin: 'utility-scheduled-outages',
  source: 'plugins',
  feedId: 'utility.scheduled-outages',
  section: 'ScheduledOutages',
  path: '/scheduled-outages',
  systemTopic: 'utility-scheduled-outages',
  answer: (outages) => ({ outages }),
  newItem: (id) => ({ id, date: '2027-01-20', start: '09:00', end: '17:00', feeder: 'F3', areas: ['Gampola'], reason: 'Maintenance', status: 'scheduled' }),
  storeTable: 'scheduled_outages',
});

describeFeedContract({
  plugin: 'water-outages',
  source: 'fixtures',
  feedId: 'fixture.water-outages',
  section: 'WaterOutages',
  path: '/water-outages',
  systemTopic: 'utility-water-outages',
  answer: (cuts) => ({ cuts }),
  newItem: (id) => ({ id, area: 'Kandy', restored: false }),
  storeTable: 'water_outages',
});
