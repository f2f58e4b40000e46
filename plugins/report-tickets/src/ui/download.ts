/** The export download every report page shares (libs/report-kit/src/ui/download.ts). */
export { downloadExport } from "@openatende/report-kit/src/ui/download";
