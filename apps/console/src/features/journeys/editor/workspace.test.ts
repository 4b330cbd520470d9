import type { Step } from '@svc/journey';
import { describe, expect, it } from 'vitest';
import { connectionNameFor, emptyTarget, targetUrl } from '../ActivationTarget';
import { legibleViewport, MIN_FIT_TO_SCREEN_ZOOM, MIN_FIT_ZOOM } from './JourneyCanvas';
import { stageTitle, stepOptionLabel } from './model/flow';

describe('product words on the canvas', () => {
  it('names a stage once, even when its name is its number', () => {
    expect(stageTitle(0, 'Stage 1')).toBe('Stage 1');
    expect(stageTitle(1, '')).toBe('Stage 2');
    expect(stageTitle(1, 'Loyal')).toBe('Stage 2 · Loyal');
  });

  it('lists steps by name and kind, never by type name', () => {
    const wait = { type: 'WaitStep', waitStep: 3, waitStepUnit: 'day', next: null } as unknown as Step;
    const merge = { type: 'Merge', next: null } as unknown as Step;
    const end = { type: 'End', name: 'Sent' } as unknown as Step;
    expect(stepOptionLabel(wait)).toBe('Wait 3 days');
    expect(stepOptionLabel(merge)).toBe('Merge');
    expect(stepOptionLabel(end)).toBe('Sent · End');
  });
});

describe('the legible fit view', () => {
  it('fits a small journey, centred, at most at 100 %', () => {
    const view = legibleViewport({ x: 0, y: 0, width: 400, height: 200 }, { width: 1400, height: 800 });
    expect(view.zoom).toBe(1);
    expect(view.x).toBe(500);
    expect(view.y).toBe(300);
  });

  it('never zooms below the legible zoom: a large journey shows its start and scrolls', () => {
    const view = legibleViewport({ x: 10, y: 20, width: 9000, height: 3000 }, { width: 1400, height: 800 }, 24);
    expect(view.zoom).toBe(MIN_FIT_ZOOM);
    expect(12 * view.zoom).toBeGreaterThanOrEqual(11);
    expect(view.x).toBeCloseTo(24 - 10 * MIN_FIT_ZOOM);
    expect(view.y).toBeCloseTo(24 - 20 * MIN_FIT_ZOOM);
  });

  it('Fit to screen shrinks to show everything, down to half size, inside the area beside the panels', () => {
    const area = { x: 240, width: 800, height: 800 };
    const fits = legibleViewport({ x: 0, y: 0, width: 1504, height: 400 }, area, 24, MIN_FIT_TO_SCREEN_ZOOM);
    expect(fits.zoom).toBeCloseTo(0.5);
    expect(fits.x).toBeCloseTo(240 + 24);
    const large = legibleViewport({ x: 0, y: 0, width: 5000, height: 400 }, area, 24, MIN_FIT_TO_SCREEN_ZOOM);
    expect(large.zoom).toBe(MIN_FIT_TO_SCREEN_ZOOM);
    expect(large.x).toBe(240 + 24);
  });
});

describe('activation targets made from a step', () => {
  it('builds the connection URL of a new webhook, table or CSV file', () => {
    expect(targetUrl({ ...emptyTarget('webhook'), webhookUrl: ' https://hooks.example.com/x ' })).toBe(
      'https://hooks.example.com/x',
    );
    expect(targetUrl({ ...emptyTarget('table'), database: 'crm', table: 'welcome mails' })).toBe(
      'td://@/crm/welcome%20mails',
    );
    expect(targetUrl({ ...emptyTarget('csv'), csvName: 'offers' })).toBe('csv://offers');
    expect(targetUrl(emptyTarget('table'))).toBeNull();
    expect(targetUrl(emptyTarget('existing'))).toBeNull();
  });

  it('names the connection after the activation', () => {
    expect(connectionNameFor('Welcome e-mail!', 36 ** 3)).toBe('welcome_e_mail_1000');
    expect(connectionNameFor('***', 1)).toBe('activation_1');
  });
});
