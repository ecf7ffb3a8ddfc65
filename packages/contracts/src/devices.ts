/** Device presets for screenshots. `custom` takes width/height from the request. */
export interface DevicePreset {
  width: number;
  height: number;
  deviceScaleFactor: number;
  isMobile: boolean;
  hasTouch: boolean;
  userAgent?: string;
}

const MOBILE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const TABLET_UA =
  'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

export const DEVICE_PRESETS = {
  desktop: { width: 1920, height: 1080, deviceScaleFactor: 1, isMobile: false, hasTouch: false },
  mobile: { width: 375, height: 667, deviceScaleFactor: 2, isMobile: true, hasTouch: true, userAgent: MOBILE_UA },
  tablet: { width: 768, height: 1024, deviceScaleFactor: 2, isMobile: true, hasTouch: true, userAgent: TABLET_UA },
} as const satisfies Record<string, DevicePreset>;

export const DEVICE_NAMES = ['desktop', 'mobile', 'tablet', 'custom'] as const;
export type DeviceName = (typeof DEVICE_NAMES)[number];

export const CUSTOM_WIDTH = { min: 100, max: 3840 } as const;
export const CUSTOM_HEIGHT = { min: 100, max: 2160 } as const;

export const DEVICE_SCALE = { min: 1, max: 3 } as const;

/**
 * The viewport a request gets. `custom` is a 1x desktop of the given size; on a preset, a given
 * width/height/scale overrides the preset's (the Supacrawler clients send `desktop` with an
 * explicit 1920x1080 and `device_scale`).
 */
export function resolveDevice(device: DeviceName, width?: number, height?: number, deviceScale?: number): DevicePreset {
  const base: DevicePreset = device === 'custom' ? { ...DEVICE_PRESETS.desktop, deviceScaleFactor: 1 } : DEVICE_PRESETS[device];
  return {
    ...base,
    width: width ?? base.width,
    height: height ?? base.height,
    deviceScaleFactor: deviceScale ?? base.deviceScaleFactor,
  };
}
