export declare const HOW_TO_GET_CHROMIUM: string;
export declare function findChromium(options?: {
  systemPaths?: string[];
  playwright?: boolean;
  env?: Record<string, string | undefined>;
}): string | undefined;
