/**
 * Meta's largest sample file per media header (image 5 MB, video 16 MB, document 100 MB), read
 * by the server's checks (template-sample.ts) and the screen's (ui/templates-form.ts) alike.
 * No imports: the UI bundle takes it as is.
 */
export const SAMPLE_MB: Readonly<Record<"IMAGE" | "VIDEO" | "DOCUMENT", number>> = { IMAGE: 5, VIDEO: 16, DOCUMENT: 100 };
