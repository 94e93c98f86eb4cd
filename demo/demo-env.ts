/** Where the demo's own servers listen, and what the service needs to reach them. */
export interface DemoWiring {
  servicePort: number;
  databaseDir: string;
  timeZone: string;
  feed: { baseUrl: string; apiKey: string };
  push: { baseUrl: string; publishToken: string };
  smtp: { port: number; password: string };
  /** The local Twilio-compatible gateway (its env entries: base URL, account, token, number). */
  sms: { env: Record<string, string> };
  /** A VAPID key pair made for this run (WebPush__VapidPublicKey, WebPush__VapidPrivateKey). */
  webPush: Record<string, string>;
  /** The secret bearer tokens are signed with: the demo prints an admin token for it. */
  jwtSecret: string;
}

/**
 * The configuration the demo gives the service (nothing else of the caller's
 * environment reaches it, so a PostgreSQL connection string or a .env file
 * meant for `npm start` cannot leak in): the embedded database in the demo's
 * temporary folder, both feeds polled every 5 s from the sample feed, both
 * system subscriptions, Push to the push inbox, Email to the mail inbox and
 * Sms to the local text gateway (national numbers read in Sri Lanka),
 * webhooks allowed to the local receiver and Web Push to the local push
 * service on loopback (with a VAPID key pair of its own),
 * links to the service itself, times in the machine's zone, a token secret
 * (the demo prints an admin token), and limits and cooldowns loose enough
 * to try things several times.
 */
export function demoServiceEnv(w: DemoWiring): Record<string, string> {
  const serviceUrl = `http://127.0.0.1:${w.servicePort}`;
  return {
    NODE_ENV: 'development',
    Server__Host: '127.0.0.1',
    Server__Port: String(w.servicePort),
    PublicBaseUrl: serviceUrl,
    Database__EmbeddedPath: w.databaseDir,
    ExternalProvider__BaseUrl: w.feed.baseUrl,
    ExternalProvider__ApiKey: w.feed.apiKey,
    PowerOutages__Enabled: 'true',
    PowerOutages__PollingIntervalSeconds: '5',
    PowerOutages__TimeZone: w.timeZone,
    ScheduledOutages__Enabled: 'true',
    ScheduledOutages__PollingIntervalSeconds: '5',
    ScheduledOutages__TimeZone: w.timeZone,
    NotificationPipeline__SystemSubscriptions__PowerOutages__FeedId: 'utility.power-outages',
    NotificationPipeline__SystemSubscriptions__PowerOutages__PushTopic: 'utility-power-outages',
    NotificationPipeline__SystemSubscriptions__ScheduledOutages__FeedId: 'utility.scheduled-outages',
    NotificationPipeline__SystemSubscriptions__ScheduledOutages__PushTopic: 'utility-scheduled-outages',
    NotificationPipeline__CooldownSeconds: '30',
    Notifications__Push__BaseUrl: w.push.baseUrl,
    Notifications__Push__PublishToken: w.push.publishToken,
    Notifications__Push__TimeoutSeconds: '5',
    EmailProvider__Host: '127.0.0.1',
    EmailProvider__Port: String(w.smtp.port),
    EmailProvider__Secure: 'false',
    EmailProvider__Username: 'demo',
    EmailProvider__ApiKey: w.smtp.password,
    EmailProvider__From: 'Outage alerts <alerts@demo.localhost>',
    EmailOutbox__RetryBaseSeconds: '5',
    ...w.sms.env,
    // The demo's webhook receiver and browser push service listen on loopback: listed.
    Webhook__AllowedHosts: '127.0.0.1',
    WebPush__AllowedEndpointHosts: '127.0.0.1',
    ...w.webPush,
    Sms__DefaultRegion: 'LK',
    SmsOutbox__RetryBaseSeconds: '5',
    SubscriptionLimits__MaxPerIp: '100',
    SubscriptionLimits__MaxPerIpPerDay: '1000',
    SubscriptionLimits__MaxSubscriptionsPerUser: '100',
    Jwt__Secret: w.jwtSecret,
  };
}

/** The few variables of the caller's environment a Node process needs to run (never configuration). */
export function baseProcessEnv(env: NodeJS.ProcessEnv, tmpDir: string): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TZ', 'SystemRoot']) {
    const value = env[name];
    if (value !== undefined) kept[name] = value;
  }
  return { ...kept, TMPDIR: tmpDir };
}
