/**
 * The one Drizzle schema, used by both drivers and by drizzle-kit (drizzle.config.ts), split by domain. Every
 * table is exported from here, so the rest of the code imports `#db/schema` whatever file holds it.
 */

export * from "./admin";
export * from "./announcements";
export * from "./beta";
export * from "./coins";
export * from "./comments";
export * from "./content";
export * from "./discord";
export * from "./fundraiser";
export * from "./notifications";
export * from "./payments";
export * from "./polls";
export * from "./qa";
export * from "./reader";
export * from "./shop";
export * from "./translations";
export * from "./uploads";
export * from "./users";
