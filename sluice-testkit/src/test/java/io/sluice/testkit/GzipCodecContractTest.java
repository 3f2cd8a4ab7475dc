package io.sluice.testkit;

import io.sluice.core.serialization.GzipCodecFactory;
import io.sluice.core.serialization.spi.CodecFactory;

/** The codec contract, run against the JDK's gzip codec. */
class GzipCodecContractTest extends CodecContractTest {

  @Override
  protected CodecFactory factory() {
    return new GzipCodecFactory();
  }
}
