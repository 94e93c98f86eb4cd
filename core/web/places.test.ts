import { describe, expect, it } from 'vitest';
import { distanceWords, placeOf, placeWords, wrappedLongitude } from './static/places.js';

describe('places on the pages', () => {
  it.each([
    [100, '100 m'],
    [250, '250 m'],
    [1000, '1 km'],
    [5000, '5 km'],
  ])('%i m: %s', (meters, words) => {
    expect(distanceWords(meters)).toBe(words);
  });

  it('says a place in words, with its name when it has one', () => {
    expect(placeWords({ name: 'Home', lat: 7.2906, lon: 80.6337, radiusMeters: 250 })).toBe('Home: within 250 m of 7.29060, 80.63370');
    expect(placeWords({ lat: -33.5, lon: 151.25 })).toBe('within 100 m of -33.50000, 151.25000');
  });

  it("makes the API's place: five decimals, the name trimmed and cut at 60, none when blank", () => {
    expect(placeOf({ lat: 7.290612345, lon: 80.633712345 }, 500, '  Home  ')).toEqual({ name: 'Home', lat: 7.29061, lon: 80.63371, radiusMeters: 500 });
    expect(placeOf({ lat: 7, lon: 80 }, 100, '   ')).toEqual({ lat: 7, lon: 80, radiusMeters: 100 });
    expect(placeOf({ lat: 7, lon: 80 }, 100, 'x'.repeat(80)).name).toHaveLength(60);
  });

  it.each([
    [80.6, 80.6],
    [440.6, 80.6],
    [-200, 160],
    [180, -180],
  ])('longitude %f is %f', (lon, wrapped) => {
    expect(wrappedLongitude(lon)).toBeCloseTo(wrapped, 9);
  });
});
