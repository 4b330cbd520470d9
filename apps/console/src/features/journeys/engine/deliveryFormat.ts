import type { JourneyDelivery, SyndicationParams } from '@svc/contracts';

/** How an activation's schedule reads: "daily at 09:00 (UTC)", "hourly at minute 15 (Asia/Tokyo)". */
export function scheduleText(params: Pick<SyndicationParams, 'scheduleType' | 'scheduleOption' | 'timezone'>): string {
  const option = params.scheduleOption ?? '00:00';
  switch (params.scheduleType) {
    case 'hourly':
      return `hourly at minute ${option.slice(3)} (${params.timezone})`;
    case 'daily':
      return `daily at ${option} (${params.timezone})`;
    default:
      return 'at every run of the engine';
  }
}

/**
 * Whether a delivery left a CSV file to download: the server names the target of deliveries to `csv://`
 * connections "CSV download", and keeps their file only when they succeeded.
 */
export function hasFile(delivery: Pick<JourneyDelivery, 'status' | 'target'>): boolean {
  return delivery.status === 'success' && delivery.target === 'CSV download';
}
