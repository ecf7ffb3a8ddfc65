import { fullPageCap } from '../src/full-page';

describe('fullPageCap', () => {
  it('is the configured cap in CSS pixels when the encoder can hold it', () => {
    expect(fullPageCap(16_384, 'png', 1)).toBe(16_384);
    expect(fullPageCap(16_384, 'png', 2)).toBe(16_384);
    expect(fullPageCap(16_384, 'jpeg', 2)).toBe(16_384);
  });

  it('is lowered so the image stays within what JPEG and WebP can store', () => {
    expect(fullPageCap(16_384, 'webp', 1)).toBe(16_383);
    expect(fullPageCap(16_384, 'webp', 2)).toBe(8_191);
    expect(fullPageCap(65_535, 'jpeg', 2)).toBe(32_767);
  });
});
