import { describe, expect, it } from "vitest";
import { FrequencySketch } from "./frequency-sketch";

describe("the page cache's frequency sketch (TinyLFU)", () => {
  it("counts each key's requests, never fewer than were made, up to 15", () => {
    const sketch = new FrequencySketch(1024);
    for (let i = 0; i < 5; i++) sketch.record("/toc\nen\n\nUTC\nvisitor");
    sketch.record("/shop\nen\n\nUTC\nvisitor");
    expect(sketch.frequency("/toc\nen\n\nUTC\nvisitor")).toBe(5);
    expect(sketch.frequency("/shop\nen\n\nUTC\nvisitor")).toBe(1);
    expect(sketch.frequency("/never\nen\n\nUTC\nvisitor")).toBe(0);
    for (let i = 0; i < 40; i++) sketch.record("/");
    expect(sketch.frequency("/")).toBe(15);
  });

  it("tells popular keys from a flood of one-off keys five times as many as it expects", () => {
    const sketch = new FrequencySketch(1024);
    const popular = ["/", "/toc", "/shop"];
    for (let i = 0; i < 4; i++) for (const key of popular) sketch.record(key);
    // More one-off keys than counters in a row: collisions add to some estimates, and few reach the popular.
    const flood = Array.from({ length: 5000 }, (_, i) => `/chapter/1\nen\n\nZone/${i}\nvisitor`);
    for (const key of flood) sketch.record(key);
    for (const key of popular) expect(sketch.frequency(key)).toBeGreaterThanOrEqual(4);
    // Most one-off keys read as once; almost none as often as the popular ones.
    const once = flood.filter((key) => sketch.frequency(key) === 1).length;
    const asPopular = flood.filter((key) => sketch.frequency(key) >= 4).length;
    expect(once / flood.length).toBeGreaterThan(0.6);
    expect(asPopular / flood.length).toBeLessThan(0.01);
  });

  it("halves every count once ten requests per expected key were recorded, so old popularity fades", () => {
    const sketch = new FrequencySketch(64);
    for (let i = 0; i < 12; i++) sketch.record("/yesterday");
    expect(sketch.frequency("/yesterday")).toBe(12);
    for (let i = 0; i < 64 * 10; i++) sketch.record(`/one-off/${i}`);
    // Halved once (to 6), with what a few later keys sharing its counters added.
    expect(sketch.frequency("/yesterday")).toBeGreaterThanOrEqual(6);
    expect(sketch.frequency("/yesterday")).toBeLessThanOrEqual(8);
  });
});
