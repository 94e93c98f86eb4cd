import { defineConfig } from 'vitest/config';

// `npm run mutate`: only the table tests of the pure policy modules (no database, no sockets), so each mutant runs in milliseconds.
export default defineConfig({
  test: {
    include: [
      'core/matching/subscription-filter.test.ts',
      'core/plugin-api/retry-policy.test.ts',
      'core/delivery/delivery-outcome.test.ts',
      'core/subscriptions/create-limits.test.ts',
      'plugins/utility-power-outages/detector.test.ts',
      'plugins/utility-scheduled-outages/detector.test.ts',
      'plugins/utility-scheduled-outages/digest-gating*.test.ts',
      'plugins/delivery-push/topic-policy.test.ts',
      'plugins/delivery-push/publish-result.test.ts',
      'plugins/delivery-email/outbox-policy.test.ts',
    ],
  },
});
