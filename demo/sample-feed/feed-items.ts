import type { AreaGeometry } from '../../core/plugin-api/shape-types.ts';

/**
 * The utility feed API's items as the sample feed sends them (the format
 * docs/feed-format.md describes): the double's own words for it, so the demo
 * names no plugin. Its test checks them against the feeds' declarations.
 */
export interface PowerOutageItem {
  id: string;
  feeder: string;
  areas: string[];
  timeOff: string;
  timeRestored: string | null;
  cause?: string | null;
  customersAffected?: number | null;
  estimatedRestoration?: string | null;
  geometry?: AreaGeometry | null;
}

export interface ScheduledOutageItem {
  id: string;
  date: string;
  start: string;
  end: string;
  feeder: string;
  areas: string[];
  reason?: string | null;
  status: 'scheduled' | 'cancelled';
  geometry?: AreaGeometry | null;
}
