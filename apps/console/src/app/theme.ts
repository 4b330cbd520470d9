import {
  type CSSVariablesResolver,
  createTheme,
  darken,
  defaultCssVariablesResolver,
  Notification,
} from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'indigo',
  // Shade 6 of indigo under white text is 4.3:1; shade 7 is 5:1 (WCAG AA asks 4.5:1 for normal text).
  primaryShade: { light: 7, dark: 8 },
  defaultRadius: 'md',
  components: {
    // Every toast can be closed, and its close button says what it does.
    Notification: Notification.extend({
      defaultProps: { withCloseButton: true, closeButtonProps: { 'aria-label': 'Close notification' } },
    }),
  },
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif, "Apple Color Emoji", "Segoe UI Emoji"',
});

/**
 * Mantine's light scheme draws secondary ("dimmed") text in gray 6 (3.3:1 on white), coloured text in shade
 * 7, and "light" badges and alerts as shade 9 on shade 1, all under the 4.5:1 that WCAG AA asks of normal
 * text. The console keeps the palette but reads secondary text in gray 7, coloured text and light-variant
 * text a little darker than shade 9, on shade 0.
 */
export const cssVariablesResolver: CSSVariablesResolver = (resolved) => {
  const base = defaultCssVariablesResolver(resolved);
  const light: Record<string, string> = { ...base.light, '--mantine-color-dimmed': 'var(--mantine-color-gray-7)' };
  for (const [name, shades] of Object.entries(resolved.colors)) {
    if (name === 'dark') continue;
    const readable = darken(shades[9], 0.15);
    light[`--mantine-color-${name}-text`] = readable;
    light[`--mantine-color-${name}-light`] = `var(--mantine-color-${name}-0)`;
    light[`--mantine-color-${name}-light-color`] = readable;
  }
  return { ...base, light };
};
