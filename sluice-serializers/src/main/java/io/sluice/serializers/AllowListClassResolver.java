package io.sluice.serializers;

import com.esotericsoftware.kryo.util.DefaultClassResolver;
import io.sluice.core.serialization.spi.ClassAllowList;

/**
 * Kryo's class resolver with the allow-list in front: a class written by name is checked before
 * Kryo loads it (with {@code initialize=false}) or instantiates it. Classes registered by id are
 * the ones {@link KryoRegistrations} lists, all of them admitted by the default allow-list.
 */
final class AllowListClassResolver extends DefaultClassResolver {

  private final ClassAllowList allowList;
  private ClassLoader cachedFor;

  AllowListClassResolver(ClassAllowList allowList) {
    this.allowList = allowList;
  }

  @Override
  protected Class getTypeByName(String className) {
    allowList.check(className);
    // Kryo caches names to classes per instance; a cache filled from another loader would hand
    // back that loader's classes, so it is dropped whenever the loader changes.
    ClassLoader loader = kryo.getClassLoader();
    if (loader != cachedFor) {
      if (nameToClass != null) {
        nameToClass.clear();
      }
      cachedFor = loader;
    }
    return super.getTypeByName(className);
  }
}
