package io.sluice.testkit;

import io.sluice.core.serialization.DeflateCodecFactory;
import io.sluice.core.serialization.spi.CodecFactory;

/** The codec contract, run against the JDK's deflate codec. */
class DeflateCodecContractTest extends CodecContractTest {

  @Override
  protected CodecFactory factory() {
    return new DeflateCodecFactory();
  }
}
