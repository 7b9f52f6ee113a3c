export declare const OFFLINE_GIT_ENV: Readonly<Record<string, string>>;
export declare function forbidNetworkGit(): void;
