import type { FeedPresentation } from '#plugin-api';

const RED = '#b42318';
const GREEN = '#027a48';
const AMBER = '#b54708';
const BLUE = '#1d4ed8';

/**
 * The feed's event types for people: the subscribe page's choices and the
 * emails' banners. A restoration and an outage first reported already over
 * share a label, so ticking "Power restored" gets both.
 */
export const powerOutagePresentation: FeedPresentation = {
  accent: RED,
  eventTypes: {
    NewOutage: { label: 'Power outage', hint: 'When the power goes off in your area.', intro: 'An outage was reported in an area you follow.', accent: RED },
    EstimateUpdated: {
      label: 'New restoration estimate',
      hint: 'When the utility changes its estimate of when power comes back.',
      intro: 'The utility changed its estimate of when power comes back after an outage in an area you follow.',
      accent: AMBER,
    },
    Restoration: {
      label: 'Power restored',
      hint: 'When power comes back, also after an outage reported only once it was over.',
      intro: 'Power is back after an outage in an area you follow.',
      accent: GREEN,
    },
    RestoredAnnouncement: {
      label: 'Power restored',
      hint: 'When power comes back, also after an outage reported only once it was over.',
      intro: 'An outage in an area you follow was reported after power was already back.',
      accent: GREEN,
    },
    ManualAnnouncement: {
      label: 'Announcements',
      hint: 'Messages from the utility: storm warnings, planned work, advice.',
      intro: 'An announcement from the utility about an area you follow.',
      accent: BLUE,
    },
  },
};
