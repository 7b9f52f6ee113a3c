// bottleneck/light.js is the same Bottleneck build without its Redis clustering; it ships no typings.
declare module 'bottleneck/light.js' {
  import Bottleneck from 'bottleneck';
  export default Bottleneck;
}
