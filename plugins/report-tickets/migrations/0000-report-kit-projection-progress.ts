/** How far the report kit's backfill is, for the screens' percent (libs/report-kit/src/projection.ts). */
export { PROJECTION_PROGRESS_MIGRATION as migration } from "@openatende/report-kit";
