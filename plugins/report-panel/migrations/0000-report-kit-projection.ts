/** The report kit's projection marker and applied-event ids (libs/report-kit/src/projection.ts). */
export { PROJECTION_MIGRATION as migration } from "@openatende/report-kit";
