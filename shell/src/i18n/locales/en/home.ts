/** Texts of the home area (en). */
export default {} as const;
